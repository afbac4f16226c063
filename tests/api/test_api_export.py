"""A match's record under /api/v1 and a player's finished matches as NDJSON with a cursor; the
matches list's cursor too (the list stopped at the newest 100)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from ratings.replay import build_record
from tests.api_helpers import client_of, post_json
from tests.helpers import first_legal, start_match, user_to_act

pytestmark = pytest.mark.django_db


def finished(alice, bob):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [0], "a test")
    match.refresh_from_db()
    return match


def ndjson(response) -> list[dict]:
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


def test_the_record_is_ratings_own_once_finished_and_refused_before(alice, bob, carol):
    running = start_match(alice, [bob])
    mover = user_to_act(running)
    move = first_legal(running, mover.number)
    actions.do_move(running.pk, mover.user, 0, move)
    refused = client_of(carol).get(f"/api/v1/matches/{running.pk}/record")
    assert refused.status_code == 403 and "seed" not in refused.content.decode()
    assert client_of(alice).get(f"/api/v1/matches/{running.pk}/record").status_code == 403  # a player too
    assert client_of(carol).get("/api/v1/matches/999999/record").status_code == 404
    actions.do_adjudicate(running.pk, [0], "a test")
    running.refresh_from_db()
    record = client_of(carol).get(f"/api/v1/matches/{running.pk}/record")
    assert record.status_code == 200 and record.json() == json.loads(json.dumps(build_record(running)))
    assert record.json()["moves"][0]["payload"] == move and record.json()["seed"] == running.seed


def test_a_players_finished_matches_stream_as_ndjson_page_by_page(alice, bob, carol):
    done = [finished(alice, bob) for _ in range(5)]
    start_match(alice, [bob])  # running: not exported
    c = client_of(carol)
    first = c.get("/api/v1/users/alice/matches?max=2")
    assert first.status_code == 200 and first["Content-Type"] == "application/x-ndjson"
    lines = ndjson(first)
    assert [line["match"]["id"] for line in lines] == [done[4].pk, done[3].pk]
    assert "record" not in lines[0] and lines[0]["match"]["status"] == "finished"
    seen = [line["match"]["id"] for line in lines]
    cursor = first["X-Next-Before"]
    while cursor:
        page = c.get(f"/api/v1/users/alice/matches?max=2&before={cursor}")
        seen += [line["match"]["id"] for line in ndjson(page)]
        cursor = page.get("X-Next-Before")
    assert seen == [m.pk for m in reversed(done)]
    with_moves = ndjson(c.get("/api/v1/users/alice/matches?max=1&moves=true"))
    assert with_moves[0]["record"]["seed"] == done[4].seed  # public after the end (ALL-3)
    assert c.get("/api/v1/users/nobody/matches").status_code == 404


@pytest.mark.slow
def test_the_matches_list_pages_past_100(alice, bob, settings):
    settings.DIZZY_MAX_ACTIVE_MATCHES = 1000
    c = client_of(alice)
    body = {"game": "solitaire-chess", "others": [{"kind": "open"}]}
    made = [post_json(c, "/api/v1/matches", body).json()["match"]["id"] for _ in range(103)]
    first = c.get("/api/v1/matches?filter=open")
    assert len(first.json()) == 100 and first["X-Next-Before"] == str(made[3])
    rest = c.get(f"/api/v1/matches?filter=open&before={first['X-Next-Before']}")
    assert [m["id"] for m in rest.json()] == made[2::-1] and "X-Next-Before" not in rest
    small = c.get("/api/v1/matches?filter=open&limit=10")
    assert len(small.json()) == 10 and 'rel="next"' in small["Link"]


def test_the_matches_list_reads_only_what_a_summary_shows(alice, bob):
    """A page of 100 rows decoded each match's JSON columns and dates that no summary shows."""
    running = start_match(alice, [bob])
    done = finished(alice, bob)
    with CaptureQueriesContext(connection) as captured:
        rows = client_of(alice).get("/api/v1/matches").json()
    assert [(r["id"], r["status"], r["game_name"]) for r in rows] == [
        (done.pk, "finished", "Solitaire Chess"),
        (running.pk, "active", "Solitaire Chess"),
    ]
    assert rows[1]["version"] == running.version and rows[1]["revision"] == running.revision
    listing = [q["sql"] for q in captured.captured_queries if 'FROM "games_seat"' in q["sql"]]
    assert len(listing) == 1
    for column in ("state", "history_tail", "options", "result", "seed", "end_reason_words"):
        assert f'"games_match"."{column}"' not in listing[0], column
