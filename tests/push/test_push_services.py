"""A push endpoint must be one of the browsers' push services, checked when a
browser subscribes and again when the worker sends (a name that resolves into our own network is
refused); an endpoint another account holds is refused, never moved."""

from __future__ import annotations

import json
import socket

import pytest

from notifications.models import Kind, Notification
from push.models import PushDelivery, PushSubscription
from push.tasks import send_push
from tests.helpers import start_match
from tests.push_endpoint import PushEndpoint, b64url

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint():
    with PushEndpoint() as server:
        yield server


def subscribe(client, url: str, keys):
    body = {"endpoint": url, "expirationTime": None, "keys": {"p256dh": keys.p256dh, "auth": b64url(keys.auth)}}
    return client.post("/push/subscriptions/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    "url",
    [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://web.push.apple.com/QGx8",
    ],
)
def test_the_browsers_push_services_are_accepted(bob, client_for, endpoint, settings, url):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    _, keys = endpoint.new_device("x")
    assert subscribe(client_for(bob), url, keys).status_code == 201


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1.nip.io/push/x",  # a name that resolves to this machine
        "https://2130706433./push/x",  # 127.0.0.1 written as one number
        "https://push.example.com/x",  # any other https host
        "https://fcm.googleapis.com.evil.example/x",
        "https://evil.example/fcm.googleapis.com/x",
        "https://fcm.googleapis.com@evil.example/x",
        "https://notify.windows.com/x",  # the bare name is not a push service of Edge's
        "https://fcm.googleapis.com:8443/x",
        "http://fcm.googleapis.com/x",
    ],
)
def test_any_other_endpoint_is_refused(bob, client_for, endpoint, settings, url):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    _, keys = endpoint.new_device("x")
    assert subscribe(client_for(bob), url, keys).status_code == 400
    assert not PushSubscription.objects.exists()


def fake_dns(monkeypatch, address: str) -> None:
    def resolve(host, port, *args, **kwargs):
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)


def delivery_to(user, url: str) -> PushDelivery:
    match = start_match(user, ["random"])
    device = PushSubscription.objects.create(user=user, endpoint=url, p256dh="x", auth="y", label="Chrome")
    row = Notification.objects.create(match=match, recipient=user, kind=Kind.INVITED, turn=99)
    return PushDelivery.objects.create(notification=row, subscription=device)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "192.168.0.9", "169.254.169.254", "::1", "fd00::1"])
def test_the_worker_refuses_a_push_service_name_that_resolves_into_our_network(bob, settings, monkeypatch, address):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    delivery = delivery_to(bob, "https://fcm.googleapis.com/fcm/send/abc")
    fake_dns(monkeypatch, address)
    posted = []
    monkeypatch.setattr("push.tasks.webpush", lambda *args, **kwargs: posted.append(args))
    send_push.apply(args=[delivery.pk])
    delivery.refresh_from_db()
    assert posted == [] and delivery.status == PushDelivery.Status.FAILED
    assert "resolves to an address in our own network" in delivery.error


def test_the_worker_refuses_an_endpoint_saved_before_the_rule(bob, settings, monkeypatch):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    delivery = delivery_to(bob, "https://push.example.com/x")  # accepted by the old check
    posted = []
    monkeypatch.setattr("push.tasks.webpush", lambda *args, **kwargs: posted.append(args))
    send_push.apply(args=[delivery.pk])
    delivery.refresh_from_db()
    assert posted == [] and delivery.status == PushDelivery.Status.FAILED and "not one of" in delivery.error


def test_the_worker_sends_to_a_push_service_on_the_internet(bob, settings, monkeypatch):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    delivery = delivery_to(bob, "https://fcm.googleapis.com/fcm/send/abc")
    fake_dns(monkeypatch, "142.250.74.74")
    posted = []
    monkeypatch.setattr("push.tasks.webpush", lambda info, **kwargs: posted.append(kwargs["headers"]))
    send_push.apply(args=[delivery.pk])
    delivery.refresh_from_db()
    assert delivery.status == PushDelivery.Status.SENT
    assert posted == [{"Urgency": "normal", "Topic": f"match-{delivery.notification.match_id}"}]


def test_an_endpoint_held_by_another_account_is_refused_not_moved(alice, bob, client_for, endpoint):
    url, keys = endpoint.new_device("shared")
    assert subscribe(client_for(alice), url, keys).status_code == 201
    answer = subscribe(client_for(bob), url, keys)
    assert answer.status_code == 409 and "another account" in answer.json()["detail"]
    assert PushSubscription.objects.get().user == alice
    assert subscribe(client_for(alice), url, keys).status_code == 200  # its own account may renew it
    device = PushSubscription.objects.get()
    assert client_for(alice).post(f"/push/subscriptions/{device.pk}/remove/").status_code == 302
    assert subscribe(client_for(bob), url, keys).status_code == 201  # once alice removed it
    assert PushSubscription.objects.get().user == bob


def test_local_endpoints_stay_allowed_for_the_tests_and_make_run(bob, client_for, endpoint, settings):
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    url, keys = endpoint.new_device("local")
    assert url.startswith("http://127.0.0.1:") and subscribe(client_for(bob), url, keys).status_code == 201
    match = start_match(bob, ["random"])
    device = PushSubscription.objects.get()
    row = Notification.objects.create(match=match, recipient=bob, kind=Kind.INVITED, turn=99)
    delivery = PushDelivery.objects.create(notification=row, subscription=device)
    send_push.apply(args=[delivery.pk])
    [push] = endpoint.received
    assert push["headers"]["topic"] == f"match-{match.pk}"


def test_the_worker_follows_no_redirect_of_a_push_service(bob, endpoint):
    """A redirect could send the worker into our own network, past the check of the endpoint's address."""
    match = start_match(bob, ["random"])
    url, keys = endpoint.new_device("moved")
    device = PushSubscription.objects.create(
        user=bob, endpoint=url, p256dh=keys.p256dh, auth=b64url(keys.auth), label="Chrome"
    )
    endpoint.status, endpoint.location = 307, endpoint.url + "/push/inside"
    row = Notification.objects.create(match=match, recipient=bob, kind=Kind.INVITED, turn=99)
    delivery = PushDelivery.objects.create(notification=row, subscription=device)
    send_push.apply(args=[delivery.pk])
    delivery.refresh_from_db()
    assert [push["path"] for push in endpoint.received] == ["/push/moved"]
    assert delivery.status == PushDelivery.Status.FAILED and "307" in delivery.error
