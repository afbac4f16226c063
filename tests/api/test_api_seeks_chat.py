"""Seeks (other people's open seats) and the match chat through the API."""

from __future__ import annotations

import pytest

from moderation.actions import block_user
from moderation.models import ChatMessage
from tests.api_helpers import client_of, post_json
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def _open(user, game="solitaire-chess", preset="daily", others=None):
    body = {"game": game, "others": others or [{"kind": "open"}], "clock": {"preset": preset}}
    response = post_json(client_of(user), "/api/v1/matches", body)
    assert response.status_code == 201, response.content
    return response.json()["match"]["id"]


def test_seeks_list_other_peoples_open_seats_filtered_by_game_and_clock(alice, bob, carol):
    chess = _open(alice)
    live_duo = _open(bob, "dizzy-duo-battle", "live")
    _open(carol)  # carol's own: not a seek for her
    _open(alice, others=[{"kind": "bot", "level": "random"}])  # started at once: no open seat
    _open(alice, others=[{"kind": "invite", "username": "bob"}])  # an invitation, not open to anyone
    c = client_of(carol)
    seeks = c.get("/api/v1/seeks").json()
    assert [s["match"]["id"] for s in seeks] == [live_duo, chess]
    assert seeks[1]["open_seats"] == 1 and seeks[1]["clock"]["preset"] == "daily" and seeks[1]["rated"]
    assert [s["match"]["id"] for s in c.get("/api/v1/seeks?game=dizzy-duo-battle").json()] == [live_duo]
    assert [s["match"]["id"] for s in c.get("/api/v1/seeks?clock=daily").json()] == [chess]
    assert c.get("/api/v1/seeks?game=chess").status_code == 400
    assert c.get(f"/api/v1/seeks?before={live_duo}").json()[0]["match"]["id"] == chess
    joined = post_json(c, f"/api/v1/matches/{chess}/join", {})
    assert joined.status_code == 200 and [s["match"]["id"] for s in c.get("/api/v1/seeks").json()] == [live_duo]


def test_a_blocking_creators_matches_are_no_seeks_for_the_blocked(alice, carol):
    _open(alice)
    block_user(alice, "carol")
    assert client_of(carol).get("/api/v1/seeks").json() == []


def test_players_write_in_the_chat_as_on_the_board(alice, bob, carol, client_for):
    match = start_match(alice, [bob])
    url = f"/api/v1/matches/{match.pk}/chat"
    written = post_json(client_of(bob), url, {"text": "  good luck  "})
    assert written.status_code == 201 and written.json()["text"] == "good luck"
    assert ChatMessage.objects.get().author == bob
    view = client_of(alice).get(f"/api/v1/matches/{match.pk}/view").json()
    assert [m["text"] for m in view["chat"]] == ["good luck"]
    # The same rules as the board's form: an outsider is refused on both, so is an empty message.
    assert post_json(client_of(carol), url, {"text": "hi"}).status_code == 403
    assert client_for(carol).post(f"/matches/{match.pk}/chat/", {"text": "hi"}).status_code == 302  # with an error
    assert post_json(client_of(bob), url, {"text": "   "}).status_code == 400
    assert post_json(client_of(bob), url, {"text": "x" * 501}).status_code == 400
    assert post_json(client_of(bob), "/api/v1/matches/999999/chat", {"text": "hi"}).status_code == 404
    assert ChatMessage.objects.count() == 1


def test_writing_in_the_chat_needs_the_play_scope_or_a_bots_bot_scope(alice, bob, make_user):
    match = start_match(alice, [bob])
    url = f"/api/v1/matches/{match.pk}/chat"
    assert post_json(client_of(bob, ["read", "challenge"]), url, {"text": "hi"}).status_code == 403
    assert post_json(client_of(bob, ["read", "play"]), url, {"text": "hi"}).status_code == 201
