"""The tournaments' API: list (by game and status), one tournament with its standings and
pairings, join and leave with the "challenge" scope; refusals change nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from api.models import ApiToken
from games import actions as games
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def make_tournament(organiser, **changes) -> Tournament:
    chosen = {
        "name": "Monday Swiss",
        "game": "solitaire-chess",
        "format": Tournament.Format.SWISS,
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 2,
        "min_entrants": 2,
    }
    return actions.do_create(organiser, TournamentSettings(**{**chosen, **changes}))


def api_for(user, scopes=None) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'test', scopes)[1]}")


def post(client: Client, url: str):
    return client.post(url, "{}", content_type="application/json")


def test_list_filters_by_game_and_status(alice):
    swiss = make_tournament(alice)
    ghosts = make_tournament(
        alice, name="Ghost tables", game="lizzy-ghosties", format="tables", table_size=4, min_entrants=3
    )
    client = api_for(alice, ["read"])
    listed = client.get("/api/v1/tournaments").json()
    assert [t["id"] for t in listed] == [ghosts.pk, swiss.pk]
    assert listed[1]["name"] == "Monday Swiss" and listed[1]["status"] == "open" and listed[1]["entrants"] == 0
    assert [t["id"] for t in client.get("/api/v1/tournaments?game=lizzy-ghosties").json()] == [ghosts.pk]
    assert client.get("/api/v1/tournaments?status=running").json() == []
    assert client.get("/api/v1/tournaments?game=chess").status_code == 400
    assert client.get("/api/v1/tournaments?status=paused").status_code == 400


def test_join_and_leave_need_the_challenge_scope(alice, bob):
    tournament = make_tournament(alice)
    url = f"/api/v1/tournaments/{tournament.pk}"
    refused = post(api_for(bob, ["read", "play"]), f"{url}/join")
    assert refused.status_code == 403 and "scope" in refused.json()["detail"]
    assert not Entry.objects.exists()
    client = api_for(bob, ["read", "challenge"])
    joined = post(client, f"{url}/join")
    assert joined.status_code == 200 and joined.json()["entrants"] == 1
    again = post(client, f"{url}/join")
    assert again.status_code == 400 and "already" in again.json()["detail"]
    assert Entry.objects.filter(user=bob).count() == 1
    left = post(client, f"{url}/leave")
    assert left.status_code == 200 and left.json()["entrants"] == 0
    assert post(client, f"{url}/leave").status_code == 400  # not entered any more
    assert post(client, "/api/v1/tournaments/999999/join").status_code == 404
    assert post(client, "/api/v1/tournaments/999999/leave").status_code == 404


def test_invite_only_refuses_with_403(alice, bob):
    tournament = make_tournament(alice, invite_only=True)
    answer = post(api_for(bob), f"/api/v1/tournaments/{tournament.pk}/join")
    assert answer.status_code == 403 and not Entry.objects.exists()


def test_one_tournament_shows_standings_and_pairings_and_no_board(alice, bob, carol):
    tournament = make_tournament(alice, rounds=1)
    for player in (alice, bob, carol):
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert actions.do_start_if_due(tournament.pk) == "started"
    client = api_for(carol, ["read"])
    body = client.get(f"/api/v1/tournaments/{tournament.pk}").json()
    assert body["tournament"]["status"] == "running" and body["tournament"]["current_round"] == 1
    assert sorted(e["username"] for e in body["entrants"]) == ["alice", "bob", "carol"]
    [round_one] = body["rounds"]
    played = [t for t in round_one["tables"] if not t["bye"]]
    [bye] = [t for t in round_one["tables"] if t["bye"]]
    [table] = played
    assert table["over"] is False and table["points"] is None and table["match_url"] == f"/matches/{table['match_id']}/"
    assert len(bye["players"]) == 1 and bye["match_id"] is None
    match = tournament.round_set.get().tables.exclude(match=None).get().match
    text = json.dumps(body)
    assert match.seed not in text and '"state"' not in text  # no board, no seed
    games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    body = client.get(f"/api/v1/tournaments/{tournament.pk}").json()
    [table] = [t for t in body["rounds"][0]["tables"] if not t["bye"]]
    assert table["over"] is True and table["points"] == [1.0, 0.0]
    winner = table["players"][0]
    assert body["standings"][0]["rank"] == 1 and body["standings"][0]["score"] == 1.0
    assert winner in {row["name"] for row in body["standings"] if row["score"] == 1.0}
    assert client.get("/api/v1/tournaments/999999").status_code == 404
