"""Web push: devices, sending once after commit, gone devices, presence, the grid, the inbox."""

from __future__ import annotations

import json

import pytest
from celery.exceptions import Retry

from games import actions
from games.engines.registry import get_engine
from notifications.models import Kind, Notification
from push.models import PushDelivery, PushSubscription
from push.tasks import MAX_ATTEMPTS, send_push
from tests.helpers import assert_nothing_locked, start_match
from tests.push_endpoint import PushEndpoint

pytestmark = pytest.mark.django_db

FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0"


@pytest.fixture
def endpoint():
    with PushEndpoint() as server:
        yield server


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def subscribe(client, endpoint_url: str, keys, **headers):
    body = {"endpoint": endpoint_url, "expirationTime": None, "keys": {"p256dh": keys.p256dh, "auth": keys_auth(keys)}}
    return client.post("/push/subscriptions/", json.dumps(body), content_type="application/json", **headers)


def keys_auth(keys) -> str:
    from tests.push_endpoint import b64url

    return b64url(keys.auth)


def device_for(user, endpoint: PushEndpoint, name: str) -> PushSubscription:
    url, keys = endpoint.new_device(name)
    return PushSubscription.objects.create(
        user=user, endpoint=url, p256dh=keys.p256dh, auth=keys_auth(keys), label="Test browser"
    )


def move_once(match):
    """The player to act moves (every step of a multi-step turn); returns the seat that waits now."""
    match.refresh_from_db()
    seat = match.seats.get(to_act=True)
    engine = get_engine(match.game)
    while True:
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
        if not match.seats.get(number=seat.number).to_act:
            return match.seats.select_related("user").get(to_act=True)


# --- devices -------------------------------------------------------------------------------------


def test_subscribe_list_and_remove_a_device(alice, bob, client_for, endpoint):
    c = client_for(bob)
    url, keys = endpoint.new_device("bob-phone")
    answer = subscribe(c, url, keys, HTTP_USER_AGENT=FIREFOX_ANDROID)
    assert answer.status_code == 201 and answer.json()["label"] == "Firefox on Android"
    assert subscribe(c, url, keys, HTTP_USER_AGENT=FIREFOX_ANDROID).status_code == 200  # the same device again
    device = PushSubscription.objects.get()
    assert device.user == bob and device.endpoint == url and device.last_used is None
    page = c.get("/settings/").content.decode()
    assert "Firefox on Android" in page and "last used never" in page and "Remove Firefox on Android" in page
    assert client_for(alice).post(f"/push/subscriptions/{device.pk}/remove/").status_code == 404
    assert c.post(f"/push/subscriptions/{device.pk}/remove/").status_code == 302
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "ftp://127.0.0.1/x"},
        {"endpoint": 7},
        {"keys": {"p256dh": "short", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"keys": {"p256dh": None}},
        {"keys": "none"},
    ],
)
def test_a_bad_subscription_is_refused(bob, client_for, endpoint, change):
    url, keys = endpoint.new_device("x")
    body = {"endpoint": url, "keys": {"p256dh": keys.p256dh, "auth": keys_auth(keys)}, **change}
    answer = client_for(bob).post("/push/subscriptions/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 400 and not PushSubscription.objects.exists()
    assert client_for(bob).post("/push/subscriptions/", "{", content_type="application/json").status_code == 400


def test_only_push_services_on_the_internet_outside_debug(bob, client_for, endpoint, settings):
    """The worker posts to the endpoint: no address in our own network unless allowed for tests."""
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = False
    c = client_for(bob)
    _, keys = endpoint.new_device("x")
    for refused in ("http://127.0.0.1:9/x", "https://10.0.0.5/x", "https://localhost/x", "http://push.example.com/x"):
        assert subscribe(c, refused, keys).status_code == 400, refused
    assert subscribe(c, "https://updates.push.services.mozilla.com/wpush/v2/abc", keys).status_code == 201


# --- sending ---------------------------------------------------------------------------------------


def test_a_move_pushes_once_to_the_other_players_device(alice, bob, endpoint, on_commit):
    match = start_match(alice, [bob])
    match.refresh_from_db()
    waiting = match.seats.select_related("user").exclude(to_act=True).get().user
    device = device_for(waiting, endpoint, "waiting")
    with on_commit():
        to_act = move_once(match)
    assert to_act.user == waiting
    [push] = endpoint.to(device.endpoint)
    assert push["signed"] and push["headers"]["content-encoding"] == "aes128gcm" and int(push["headers"]["ttl"]) > 0
    payload = push["payload"]
    assert payload["title"] == f"Your turn in Solitaire Chess #{match.pk}"
    others = "bob" if waiting == alice else "alice"
    assert payload["body"].startswith(f"Against {others}. Move by ")
    row = Notification.objects.get(kind=Kind.YOUR_TURN, recipient=waiting)
    assert payload["url"] == f"http://127.0.0.1:8000/matches/{match.pk}/" and payload["tag"] == f"match-{match.pk}"
    from push.payloads import seen_token

    assert payload["read"] == f"http://127.0.0.1:8000/inbox/seen/{seen_token(row.pk)}/"  # a tap marks it read
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDelivery.Status.SENT and delivery.attempts == 1
    device.refresh_from_db()
    assert device.last_used is not None
    send_push.apply(args=[delivery.pk])  # a repeated task sends nothing more
    assert len(endpoint.received) == 1
    assert match.seed not in json.dumps(payload)


def test_a_gone_device_is_deleted(alice, bob, endpoint, on_commit):
    from notifications.service import notify

    match = start_match(alice, [bob])
    device = device_for(bob, endpoint, "old-phone")
    kept = device_for(alice, endpoint, "alices")
    endpoint.status = 410
    with on_commit():
        notify(match, bob, Kind.INVITED, 50)
    assert len(endpoint.to(device.endpoint)) == 1
    assert list(PushSubscription.objects.all()) == [kept] and not PushDelivery.objects.exists()
    assert Notification.objects.filter(recipient=bob, kind=Kind.INVITED, turn=50).exists()  # the inbox keeps it


def test_a_failing_push_service_is_retried_with_backoff_then_given_up(alice, bob, endpoint):
    match = start_match(alice, [bob])
    device = device_for(bob, endpoint, "flaky")
    endpoint.status = 503
    row = Notification.objects.create(match=match, recipient=bob, kind=Kind.INVITED, turn=77)
    delivery = PushDelivery.objects.create(notification=row, subscription=device)
    waits = []
    for _ in range(MAX_ATTEMPTS + 2):
        try:
            send_push.apply(args=[delivery.pk])
        except Retry as retry:
            waits.append(retry.when)
            continue
        break
    delivery.refresh_from_db()
    assert waits == [30 * 2**n for n in range(MAX_ATTEMPTS - 1)]
    assert delivery.status == PushDelivery.Status.FAILED and delivery.attempts == MAX_ATTEMPTS
    assert len(endpoint.received) == MAX_ATTEMPTS and "503" in delivery.error
    assert PushSubscription.objects.filter(pk=device.pk).exists()  # a failing service is not a gone device


def test_nothing_is_pushed_while_the_player_looks_at_the_board(alice, bob, client_for, endpoint, on_commit):
    match = start_match(alice, [bob])
    match.refresh_from_db()
    waiting = match.seats.exclude(to_act=True).get().user
    device = device_for(waiting, endpoint, "watching")
    client_for(waiting).get(f"/matches/{match.pk}/?since=0", HTTP_HX_REQUEST="true")  # its poll
    with on_commit():
        move_once(match)
    assert not PushDelivery.objects.filter(subscription=device).exists()  # no "your turn" at all
    assert endpoint.received == []
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN, turn__gt=0).exists()


def test_push_is_per_kind_and_independent_of_email(alice, bob, endpoint, on_commit):
    bob.email_preferences = {"invited": "never"}
    bob.push_preferences = {"finished": False}
    bob.save()
    match = start_match(alice, [bob])
    device_for(bob, endpoint, "bob")
    from notifications.service import notify

    with on_commit():
        notify(match, bob, Kind.INVITED, 40)  # no email, but a push
        notify(match, bob, Kind.FINISHED, 41)  # an email, no push
        notify(match, bob, Kind.STARTED, 42)  # off by default
    assert [push["payload"]["title"] for push in endpoint.received] == [f"Invitation to Solitaire Chess #{match.pk}"]
    assert endpoint.received[0]["payload"]["body"] == "alice invites you to a match of Solitaire Chess."
    statuses = dict(Notification.objects.filter(recipient=bob, turn__gte=40).values_list("kind", "status"))
    assert statuses[Kind.INVITED] == Notification.Status.SKIPPED and statuses[Kind.FINISHED] == "sent"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_push_service_is_talked_to_outside_any_transaction(alice, bob, endpoint, monkeypatch):
    from django.db import connection

    from tests.conftest import require

    require(connection.vendor == "postgresql", "row locks need PostgreSQL")
    match = start_match(alice, [bob])
    device = device_for(bob, endpoint, "bob")
    seen = []

    def checking_webpush(info, **kwargs):
        delivery = PushDelivery.objects.get(subscription=device)
        assert not connection.in_atomic_block and delivery.status == PushDelivery.Status.SENDING
        assert_nothing_locked(PushDelivery.objects.filter(pk=delivery.pk), type(match).objects.filter(pk=match.pk))
        seen.append(info["endpoint"])

    monkeypatch.setattr("push.tasks.webpush", checking_webpush)
    from notifications.service import notify

    notify(match, bob, Kind.INVITED, 9)  # autocommit: the task runs (eagerly) right after
    assert seen == [device.endpoint]
    assert PushDelivery.objects.get().status == PushDelivery.Status.SENT


# --- preferences grid ----------------------------------------------------------------------------


def test_the_preferences_grid(bob, client_for):
    c = client_for(bob)
    page = c.get("/email/preferences/").content.decode()
    assert "Push to my devices" in page and "Email in a daily digest" in page and "Always sent" in page
    assert 'name="push_your_turn" checked' in page.replace(' id="id_push_your_turn"', "")  # on by default
    assert 'name="push_started"' in page and 'name="push_started" checked' not in page  # off by default
    form = {k: "each" for k in Kind.values if k != "reminder"}
    form.update({"your_turn": "digest", "push_reminder": "on", "push_finished": "on"})
    assert c.post("/email/preferences/", form).status_code == 302
    bob.refresh_from_db()
    assert bob.email_preferences["your_turn"] == "digest" and bob.email_preferences["finished"] == "each"
    assert bob.push_preferences == {k: k in ("reminder", "finished") for k in Kind.values}
    assert c.post("/email/preferences/", {**form, "invited": "hourly"}).status_code == 200  # refused
    bob.refresh_from_db()
    assert bob.email_preferences["invited"] == "each"


def test_one_click_unsubscribe_leaves_push_alone(bob, client):
    from notifications.emails import unsubscribe_token

    bob.push_preferences = {"your_turn": True}
    bob.save()
    assert client.post(f"/email/unsubscribe/{unsubscribe_token(bob.pk, Kind.YOUR_TURN)}/").status_code == 200
    bob.refresh_from_db()
    assert bob.email_preferences == {"your_turn": "never"} and bob.push_preferences == {"your_turn": True}


# --- inbox ---------------------------------------------------------------------------------------


def test_the_bell_the_inbox_and_marking_read(alice, bob, client_for, on_commit):
    from tests.helpers import time_out

    match = start_match(alice, [bob], options={"ruleset": "death"})  # bob: an invitation and a start
    c = client_for(bob)
    bell = c.get("/inbox/bell/").content.decode()
    assert 'data-count="2"' in bell and "Inbox: 2" in bell and "unread" in bell
    c.get("/inbox/")
    assert "Inbox: 2" in c.get("/inbox/bell/").content.decode()  # showing them reads nothing
    row = Notification.objects.filter(recipient=bob).first()
    assert client_for(alice).get(f"/inbox/{row.pk}/").status_code == 404  # not hers
    opened = c.get(f"/inbox/{row.pk}/")  # the address older pushes carry: to the board, reading nothing
    assert opened.status_code == 302 and opened["Location"] == f"/matches/{match.pk}/"
    assert "Inbox: 2" in c.get("/inbox/bell/").content.decode()
    assert c.post("/inbox/read-all/").status_code == 302
    assert "Inbox: 0" in c.get("/inbox/bell/").content.decode()
    with on_commit():
        time_out(match)
    assert "Inbox: 1" in c.get("/inbox/bell/").content.decode()
    page = c.get("/inbox/").content.decode()
    assert "A match has finished: Solitaire Chess" in page and "New" in page
    assert f'href="/matches/{match.pk}/"' in page
    finished = Notification.objects.get(recipient=bob, kind=Kind.FINISHED)
    assert c.post(f"/inbox/{finished.pk}/read/").status_code == 302
    assert "Inbox: 0" in c.get("/inbox/bell/").content.decode()
    assert "New" not in c.get("/inbox/").content.decode().split("<h1>")[1]
    assert client_for(alice).get("/inbox/").content.decode().count("<li") >= 1


def test_the_frames_load_the_bell_and_link_the_manifest(alice, bob, client_for, django_assert_num_queries):
    match = start_match(alice, [bob])
    c = client_for(bob)
    for url in ("/", f"/matches/{match.pk}/"):
        page = c.get(url).content.decode()
        assert 'id="inbox-bell"' in page and 'hx-get="/inbox/bell/"' in page and 'hx-trigger="load"' in page
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page and "/static/js/push.js" in page


def test_manifest_and_service_worker(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = json.loads(manifest.content)
    assert body["display"] == "standalone" and body["start_url"] == "/" and body["name"] == "Dizzysite"
    sizes = {icon["sizes"] for icon in body["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    from django.contrib.staticfiles import finders

    for icon in body["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript") and worker["Service-Worker-Allowed"] == "/"
    script = worker.content.decode()
    assert "showNotification" in script and "notificationclick" in script
    assert "caches." not in script and '"fetch"' not in script  # no offline copy of private pages
    key = client.get("/push/key/").json()["key"]
    assert len(key) == 87  # base64url of a 65-byte P-256 point


# --- VAPID keys ------------------------------------------------------------------------------------


@pytest.fixture
def fresh_keys():
    from push.keys import vapid_keys

    vapid_keys.cache_clear()
    yield vapid_keys
    vapid_keys.cache_clear()


def test_make_run_keeps_one_key_pair(settings, tmp_path, fresh_keys):
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_DEV_KEY_FILE = str(tmp_path / "vapid_private.pem")
    first = fresh_keys().public_key
    fresh_keys.cache_clear()
    assert fresh_keys().public_key == first  # read back, not made anew
    assert (tmp_path / "vapid_private.pem").read_text().startswith("-----BEGIN PRIVATE KEY-----")


def test_production_keys_come_from_the_environment(settings, fresh_keys):
    from django.core.exceptions import ImproperlyConfigured
    from py_vapid import Vapid

    from push.keys import b64url

    made = Vapid()
    made.generate_keys()
    raw = made.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.VAPID_DEV_KEY_FILE = ""
    settings.VAPID_PRIVATE_KEY = ""
    assert fresh_keys() is None  # push is switched off
    fresh_keys.cache_clear()
    settings.VAPID_PRIVATE_KEY = b64url(raw)  # the form web-push tools print
    settings.VAPID_PUBLIC_KEY = fresh_keys().public_key
    fresh_keys.cache_clear()
    assert fresh_keys().subject == settings.VAPID_SUBJECT
    fresh_keys.cache_clear()
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PUBLIC_KEY[:-2] + (
        "AA" if settings.VAPID_PUBLIC_KEY[-2:] != "AA" else "AB"
    )
    with pytest.raises(ImproperlyConfigured):
        fresh_keys()


def test_the_vapid_keys_command_prints_a_pair_the_site_accepts(settings, fresh_keys):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    values = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = values["VAPID_PRIVATE_KEY"], values["VAPID_PUBLIC_KEY"]
    assert fresh_keys().public_key == values["VAPID_PUBLIC_KEY"]


def test_the_safety_net_sends_lost_pushes_and_dead_workers_claims_once(alice, bob, endpoint):
    from datetime import timedelta

    from django.utils import timezone

    from push.tasks import resend_waiting_pushes, send_lease

    match = start_match(alice, [bob])
    device = device_for(bob, endpoint, "bob")
    lost, claimed, fresh = (
        PushDelivery.objects.create(
            notification=Notification.objects.create(match=match, recipient=bob, kind=Kind.INVITED, turn=turn),
            subscription=device,
        )
        for turn in (60, 61, 62)
    )
    PushDelivery.objects.filter(pk=lost.pk).update(created=timezone.now() - timedelta(minutes=11))
    dead = timezone.now() - send_lease() - timedelta(seconds=1)
    PushDelivery.objects.filter(pk=claimed.pk).update(status=PushDelivery.Status.SENDING, claimed_at=dead, attempts=1)
    assert resend_waiting_pushes() == 2  # the lost task and the dead worker's claim; not the fresh row
    assert len(endpoint.received) == 2 and resend_waiting_pushes() == 0
    statuses = dict(PushDelivery.objects.values_list("pk", "status"))
    assert statuses == {lost.pk: "sent", claimed.pk: "sent", fresh.pk: "pending"}
