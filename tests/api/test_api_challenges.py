"""Challenges through the API: create to a user with game, options and clock; accept;
decline with a reason the challenger reads; cancel. Each is the lobby's own action underneath."""

from __future__ import annotations

import pytest

from api.models import Challenge
from games.models import Match
from notifications.models import Kind, Notification
from tests.api_helpers import client_of, post_json

pytestmark = pytest.mark.django_db

BODY = {
    "game": "dizzy-duo-battle",
    "username": "bob",
    "options": {"lives": 3, "lifeline": False},
    "clock": {"preset": "custom", "turn_minutes": 60, "reserve_periods": 1, "period_minutes": 30},
    "rated": False,
}


def _challenge(alice, body=None) -> int:
    response = post_json(client_of(alice), "/api/v1/challenges", body or BODY)
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_a_challenge_is_an_invitation_with_the_options_and_clock(alice, bob):
    challenge = post_json(client_of(alice), "/api/v1/challenges", BODY).json()
    match = Match.objects.get(pk=challenge["id"])
    assert challenge["status"] == "pending" and challenge["challenged"]["username"] == "bob"
    assert match.status == Match.Status.OPEN and match.options["lives"] == 3 and not match.rated
    assert match.turn_seconds == 3600 and match.reserve_periods == 1 and match.period_seconds == 1800
    assert match.seats.get(number=1).user == bob and not match.seats.get(number=1).accepted
    assert Notification.objects.filter(recipient=bob, kind=Kind.INVITED, match=match).exists()
    listed = client_of(bob).get("/api/v1/challenges").json()
    assert [c["id"] for c in listed["incoming"]] == [match.pk] and listed["outgoing"] == []
    assert [c["id"] for c in client_of(alice).get("/api/v1/challenges").json()["outgoing"]] == [match.pk]


def test_the_challenged_player_accepts_and_the_match_starts(alice, bob, carol):
    challenge_id = _challenge(alice)
    assert post_json(client_of(carol), f"/api/v1/challenges/{challenge_id}/accept", {}).status_code == 404
    assert post_json(client_of(alice), f"/api/v1/challenges/{challenge_id}/accept", {}).status_code == 403
    accepted = post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/accept", {})
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert Match.objects.get(pk=challenge_id).status == Match.Status.ACTIVE
    assert post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/accept", {}).status_code == 409


def test_a_decline_with_a_reason_reaches_the_challenger(alice, bob):
    challenge_id = _challenge(alice)
    declined = post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/decline", {"reason": "too_slow"})
    assert declined.status_code == 200, declined.content
    seen = client_of(alice).get(f"/api/v1/challenges/{challenge_id}").json()
    assert seen["status"] == "declined" and seen["decline_reason"] == "too_slow"
    assert seen["decline_reason_text"] == "This clock is too slow for me."
    assert Match.objects.get(pk=challenge_id).status == Match.Status.CANCELLED  # nobody else takes the seat
    again = post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/decline", {})
    assert again.status_code == 409
    bad = post_json(client_of(bob), f"/api/v1/challenges/{_challenge(alice)}/decline", {"reason": "nope"})
    assert bad.status_code == 400


def test_only_the_challenger_cancels_and_only_before_an_answer(alice, bob):
    challenge_id = _challenge(alice)
    assert post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/cancel", {}).status_code == 403
    cancelled = post_json(client_of(alice), f"/api/v1/challenges/{challenge_id}/cancel", {})
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/accept", {}).status_code == 409
    assert post_json(client_of(alice), f"/api/v1/challenges/{challenge_id}/cancel", {}).status_code == 409


def test_a_challenge_to_nobody_oneself_or_with_wrong_options_is_refused(alice):
    c = client_of(alice)
    assert post_json(c, "/api/v1/challenges", {**BODY, "username": "nobody"}).status_code == 404
    assert post_json(c, "/api/v1/challenges", {**BODY, "username": "alice"}).status_code == 409
    assert post_json(c, "/api/v1/challenges", {**BODY, "options": {"lifeline": "maybe"}}).status_code == 400
    assert not Match.objects.exists() and not Challenge.objects.exists()


def test_a_challenge_to_a_bigger_game_fills_the_other_seats(alice, bob):
    body = {"game": "lizzy-ghosties", "username": "bob", "others": [{"kind": "bot", "level": "random"}]}
    challenge_id = _challenge(alice, body)
    assert Match.objects.get(pk=challenge_id).seats.count() == 3
    assert post_json(client_of(bob), f"/api/v1/challenges/{challenge_id}/accept", {}).json()["status"] == "accepted"


def test_challenges_need_the_challenge_scope(alice, bob):
    read_only = client_of(alice, ["read"])
    response = post_json(read_only, "/api/v1/challenges", BODY)
    assert response.status_code == 403 and "challenge" in response.json()["detail"]
    assert read_only.get("/api/v1/challenges").status_code == 200
    assert not Match.objects.exists()
