"""A real worker pushes to a push service of the test's own on 127.0.0.1, which checks the
VAPID signature and decrypts each push with the subscription's keys, as a browser would."""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from django.test import Client

from games import actions
from games.engines.registry import get_engine
from games.models import Match
from notifications.models import Kind, Notification
from push.models import PushSubscription
from push.payloads import push_payload
from tests.helpers import start_match
from tests.integration.conftest import wait_for
from tests.push_endpoint import PushEndpoint, b64url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def subscribe(user, endpoint: PushEndpoint, name: str) -> PushSubscription:
    """Through the site's own view, as push.js posts PushSubscription.toJSON()."""
    url, keys = endpoint.new_device(name)
    c = Client()
    c.force_login(user)
    body = {"endpoint": url, "expirationTime": None, "keys": {"p256dh": keys.p256dh, "auth": b64url(keys.auth)}}
    assert c.post("/push/subscriptions/", json.dumps(body), content_type="application/json").status_code == 201
    return PushSubscription.objects.get(endpoint=url)


def play_turn(match: Match) -> Match:
    """The player to act moves until the turn passes (Solitaire Chess's order choice keeps it)."""
    engine = get_engine(match.game)
    seat = match.seats.get(to_act=True)
    while True:
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
        if not match.seats.get(number=seat.number).to_act:
            return match


def test_a_move_pushes_once_to_the_other_player_and_a_gone_device_is_deleted(
    alice, bob, publish_to_redis, start_worker
):
    with PushEndpoint() as endpoint:
        start_worker("w1")
        match = start_match(alice, [bob])
        devices = {user.pk: subscribe(user, endpoint, user.username) for user in (alice, bob)}
        mover = match.seats.get(to_act=True).user
        match = play_turn(match)
        other = match.seats.get(to_act=True).user
        assert other != mover

        [push] = wait_for(lambda: endpoint.to(devices[other.pk].endpoint), 30, what="the your-turn push")
        time.sleep(2)  # time for a second push, if one were (wrongly) sent
        assert len(endpoint.to(devices[other.pk].endpoint)) == 1 and endpoint.to(devices[mover.pk].endpoint) == []
        assert push["signed"] and push["headers"]["content-encoding"] == "aes128gcm"
        payload = push["payload"]
        row = Notification.objects.get(recipient=other, kind=Kind.YOUR_TURN)
        assert payload["title"] == f"Your turn in Solitaire Chess #{match.pk}"
        assert re.fullmatch(
            rf"Against {mover.username}\. Move by \w{{3}} \d+ \w{{3}}, \d\d:\d\d UTC\.", payload["body"]
        )
        assert payload["url"].endswith(f"/matches/{match.pk}/") and payload["tag"] == f"match-{match.pk}"
        assert set(payload) == {"title", "body", "url", "tag", "read"} and "/inbox/seen/" in payload["read"]
        # No hidden information: the same push for a state where all the recipient may not know is dealt anew.
        seat = match.seats.get(user=other).number
        twin = actions.engine_of(match).hidden_twin(match.state, seat, random.Random(7))
        Match.objects.filter(pk=match.pk).update(state=twin)
        assert push_payload(Notification.objects.get(pk=row.pk)) == payload
        Match.objects.filter(pk=match.pk).update(state=match.state)
        assert match.state["rng"]["seed"] not in json.dumps(payload)
        wait_for(lambda: PushSubscription.objects.get(pk=devices[other.pk].pk).last_used, 10, what="last used")

        # The first mover's phone unsubscribed: the push service answers 410 and the device goes.
        endpoint.status = 410
        play_turn(match)
        wait_for(lambda: endpoint.to(devices[mover.pk].endpoint), 30, what="the push to the gone device")
        wait_for(lambda: not PushSubscription.objects.filter(pk=devices[mover.pk].pk).exists(), 10, what="its deletion")
        assert PushSubscription.objects.filter(pk=devices[other.pk].pk).exists()


def test_a_real_worker_sends_the_topic_and_refuses_a_name_inside_our_network(
    alice, bob, publish_to_redis, start_worker, monkeypatch, settings
):
    """Every push carries its match's Topic; a push service's name that resolves to this
    machine (here "localhost", let through the list for the test) is refused by the worker, unsent."""
    from notifications.service import notify
    from push.models import PushDelivery

    monkeypatch.setenv("PUSH_SERVICE_HOSTS", "localhost")  # the worker's settings
    settings.PUSH_SERVICE_HOSTS = ["localhost"]  # the subscribing view's
    with PushEndpoint() as endpoint:
        start_worker("w1")
        match = start_match(alice, [bob])
        local = subscribe(alice, endpoint, "alice")  # the tests' push service on 127.0.0.1: allowed for tests
        c = Client()
        c.force_login(bob)
        _, keys = endpoint.new_device("bob")
        body = {"endpoint": "https://localhost/push/bob", "keys": {"p256dh": keys.p256dh, "auth": b64url(keys.auth)}}
        assert c.post("/push/subscriptions/", json.dumps(body), content_type="application/json").status_code == 201
        notify(match, alice, Kind.INVITED, 70)  # autocommit: the tasks go to the worker at once
        notify(match, bob, Kind.INVITED, 70)

        [push] = wait_for(lambda: endpoint.to(local.endpoint), 30, what="the push to alice")
        assert push["headers"]["topic"] == f"match-{match.pk}" and push["payload"]["tag"] == f"match-{match.pk}"
        refused = wait_for(
            lambda: PushDelivery.objects.filter(subscription__user=bob, status=PushDelivery.Status.FAILED).first(),
            30,
            what="the refusal of bob's endpoint",
        )
        assert "resolves to an address in our own network" in refused.error and refused.attempts == 1
        assert len(endpoint.received) == 1
