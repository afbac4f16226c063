"""The public API: tokens, every endpoint, errors as JSON, rate limits, the calendar feed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.utils import timezone

from api.models import ApiToken, CalendarFeed, hash_token
from games.models import Match, Move
from tests.api_helpers import json_of
from tests.helpers import first_legal, start_match, user_to_act
from tests.hostile import HOSTILE

pytestmark = pytest.mark.django_db


def api_client(raw: str | None) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}") if raw else Client()


@pytest.fixture
def token_for():
    def make(user, name: str = "test") -> str:
        return ApiToken.issue(user, name)[1]

    return make


def post_json(client: Client, url: str, body, **extra):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **extra)


# --- tokens -------------------------------------------------------------------------------------


def test_a_token_is_stored_hashed_and_works_until_revoked(alice, token_for):
    raw = token_for(alice)
    token = ApiToken.objects.get()
    assert raw.startswith("dzy_") and len(raw) > 40
    assert token.key_hash == hash_token(raw) and raw not in token.key_hash and token.last_used is None
    response = api_client(raw).get("/api/v1/me")
    assert response.status_code == 200 and response.json() == {"username": "alice", "name": "alice", "is_bot": False}
    token.refresh_from_db()
    assert token.last_used is not None
    token.revoke()
    response = api_client(raw).get("/api/v1/me")
    assert response.status_code == 401 and "token" in response.json()["detail"]
    assert response["WWW-Authenticate"] == "Bearer"


def test_no_token_a_forged_one_or_an_inactive_user_is_401(alice, token_for):
    raw = token_for(alice)
    for client in (Client(), api_client("dzy_forged"), api_client("nonsense"), Client(HTTP_AUTHORIZATION=raw)):
        assert client.get("/api/v1/me").status_code == 401
    alice.is_active = False
    alice.save()
    assert api_client(raw).get("/api/v1/me").status_code == 401


def test_the_settings_page_creates_shows_once_lists_and_revokes(alice, client_for):
    c = client_for(alice)
    assert c.get("/settings/").content.decode().count("/settings/api/") == 1
    page = c.post("/settings/api/", {"name": "my bot", "scopes": ["read", "play", "challenge"]})
    raw = page.context["raw"]
    assert page.status_code == 200 and raw in page.content.decode() and "no-cache" in page["Cache-Control"]
    listing = c.get("/settings/api/").content.decode()
    assert "my bot" in listing and raw not in listing and "never" in listing
    api_client(raw).get("/api/v1/me")
    assert "never" not in c.get("/settings/api/").content.decode().split("Your tokens")[1].split("Calendar")[0]
    token = ApiToken.objects.get()
    assert c.post(f"/settings/api/{token.pk}/revoke/").status_code == 302
    assert api_client(raw).get("/api/v1/me").status_code == 401


def test_nobody_revokes_another_users_token(alice, bob, client_for, token_for):
    token_for(alice)
    token = ApiToken.objects.get()
    assert client_for(bob).post(f"/settings/api/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked is None


# --- reading ------------------------------------------------------------------------------------


def test_my_matches_and_their_filters(alice, bob, carol, token_for):
    running = start_match(alice, [bob])
    from games import actions
    from games.actions import SeatSpec

    invited = actions.create_match(carol, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "alice")])
    mover = user_to_act(running).user
    waiter = bob if mover == alice else alice
    c = api_client(token_for(mover))
    ids = lambda which: [m["id"] for m in c.get(f"/api/v1/matches?filter={which}").json()]  # noqa: E731
    assert ids("my_turn") == [running.pk] and ids("waiting") == [] and ids("finished") == []
    assert api_client(token_for(waiter)).get("/api/v1/matches?filter=waiting").json()[0]["id"] == running.pk
    assert ids("invited") == ([invited.pk] if mover == alice else [])
    assert c.get("/api/v1/matches?filter=nonsense").status_code == 400
    actions.do_abort(running.pk, alice, "test")
    assert ids("finished") == [running.pk]


def test_public_facts_and_games(alice, bob, carol, token_for):
    match = start_match(alice, [bob])
    c = api_client(token_for(carol))
    facts = c.get(f"/api/v1/matches/{match.pk}").json()
    assert facts["match"]["id"] == match.pk and [s["username"] for s in facts["seats"]] == ["alice", "bob"]
    assert "state" not in json.dumps(facts) and match.seed not in json.dumps(facts)
    assert c.get("/api/v1/matches/999999").status_code == 404
    assert c.get("/api/v1/matches/99999999999999999999").status_code == 400
    games = c.get("/api/v1/games").json()
    assert {g["slug"] for g in games} >= {"solitaire-chess"}


def test_my_view_is_the_board_pages_player_view(alice, bob, carol, token_for):
    from django.contrib.auth.models import AnonymousUser

    from games.presenters import player_view

    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    for user in (mover, carol):
        body = api_client(token_for(user)).get(f"/api/v1/matches/{match.pk}/view").json()
        pv = player_view(Match.objects.get(pk=match.pk), user)
        assert body["view"] == json.loads(json.dumps(pv.view)) and body["legal"] == pv.legal
        assert body["version"] == match.version and body["seat"] == pv.seat and body["my_turn"] == pv.my_turn
    mine = api_client(token_for(mover)).get(f"/api/v1/matches/{match.pk}/view").json()
    assert mine["legal"] and mine["clock"]["deadline"] and mine["clock"]["preset"] == "daily"
    outsider = api_client(token_for(carol)).get(f"/api/v1/matches/{match.pk}/view").json()
    assert outsider["legal"] == [] and outsider["seat"] is None
    assert player_view(match, AnonymousUser()).legal == []


# --- moves --------------------------------------------------------------------------------------


def test_a_move_through_the_api_and_its_errors(alice, bob, carol, token_for):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    url = f"/api/v1/matches/{match.pk}/moves"
    move = first_legal(match, match.seats.get(user=mover).number)
    mine, theirs = api_client(token_for(mover)), api_client(token_for(other))
    assert post_json(theirs, url, {"version": 0, "move": move}).json()["detail"] == "It is not your turn."
    assert post_json(theirs, url, {"version": 0, "move": move}).status_code == 403
    assert post_json(api_client(token_for(carol)), url, {"version": 0, "move": move}).status_code == 403
    assert post_json(Client(), url, {"version": 0, "move": move}).status_code == 401
    stale = post_json(mine, url, {"version": 7, "move": move})
    assert stale.status_code == 409 and "changed" in stale.json()["detail"]
    illegal = post_json(mine, url, {"version": 0, "move": {"type": "no-such-move"}})
    assert illegal.status_code == 400 and illegal.json()["detail"]
    assert not Move.objects.exists()
    played = post_json(mine, url, {"version": 0, "move": move})
    assert played.status_code == 200 and played.json()["version"] == 1 and Move.objects.count() == 1
    assert post_json(mine, "/api/v1/matches/999999/moves", {"version": 0, "move": move}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 10000,
        b'{"version": 0, "move": {"type": "a\\u0000b"}}',
        b'{"version": 0, "move": {"type": "\\ud800"}}',
        b'{"version": 0, "move": {"type": "\xff\xfe"}}',
        b'{"version": NaN, "move": {}}',
        b'{"version": 0, "move": ' + b"[" * 6000 + b"]" * 6000 + b"}",
        b"not json",
        b'{"version": 99999999999999999999999, "move": {"type": "x"}}',
        b'{"version": 0, "move": [1, 2]}',
        b"[]",
    ],
)
def test_hostile_bodies_are_400_with_a_json_message(body, alice, bob, token_for):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    response = post_json(api_client(token_for(mover)), f"/api/v1/matches/{match.pk}/moves", body)
    assert response.status_code == 400, response.content[:300]
    assert response.json()["detail"]
    assert not Move.objects.exists()


def test_a_body_over_the_limit_is_413(alice, bob, token_for, settings):
    settings.DIZZY_API_MAX_BODY_BYTES = 100
    match = start_match(alice, [bob])
    body = {"version": 0, "move": {"type": "x", "pad": "y" * 200}}
    response = post_json(api_client(token_for(alice)), f"/api/v1/matches/{match.pk}/moves", body)
    assert response.status_code == 413 and "100 bytes" in response.json()["detail"]


# --- events -------------------------------------------------------------------------------------


def test_events_answer_at_once_when_the_revision_passed(alice, bob, token_for, settings):
    settings.DIZZY_API_LONGPOLL_SECONDS = 0.3
    settings.DIZZY_API_POLL_INTERVAL = 0.05
    match = start_match(alice, [bob])
    c = api_client(token_for(alice))
    now = c.get(f"/api/v1/matches/{match.pk}/events?since=0").json()
    assert now["changed"] is True and now["revision"] == match.revision
    idle = json_of(c.get(f"/api/v1/matches/{match.pk}/events?since={match.revision}"))  # it waited: streamed
    assert idle == {"changed": False, "revision": match.revision, "version": 0, "status": "active"}
    assert c.get(f"/api/v1/matches/{match.pk}/events").status_code == 400
    assert c.get(f"/api/v1/matches/{match.pk}/events?since=-1").status_code == 400
    assert c.get("/api/v1/matches/999999/events?since=0").status_code == 404


@pytest.mark.postgres
def test_a_long_poll_wakes_up_on_a_move(alice, bob, token_for, settings, transactional_db):
    import threading
    import time

    from games import actions
    from live import broadcast

    settings.DIZZY_API_LONGPOLL_SECONDS = 10
    settings.DIZZY_API_POLL_INTERVAL = 30  # no re-reading: the move's live event (after its commit) wakes it
    settings.LIVE_REDIS_URL = ""
    broadcast.reset_broadcaster()
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    answers = []
    raw = token_for(alice)

    def long_poll() -> None:
        try:
            answers.append(json_of(api_client(raw).get(f"/api/v1/matches/{match.pk}/events?since={match.revision}")))
        finally:
            connection.close()  # this thread's own connection

    poll = threading.Thread(target=long_poll)
    started = time.monotonic()
    poll.start()
    time.sleep(0.3)
    actions.do_move(match.pk, mover, 0, first_legal(match, match.seats.get(user=mover).number))
    poll.join(10)
    assert answers and answers[0]["changed"] and answers[0]["version"] == 1
    assert time.monotonic() - started < 5
    broadcast.reset_broadcaster()


# --- the lobby ----------------------------------------------------------------------------------


def test_create_a_match_with_a_bot_and_an_invitation_then_accept(alice, bob, token_for):
    c = api_client(token_for(alice))
    body = {
        "game": "solitaire-chess",
        "others": [{"kind": "invite", "username": "bob"}],
        "clock": {"preset": "custom", "turn_minutes": 90, "reserve_periods": 1, "period_minutes": 60},
    }
    unrated = post_json(c, "/api/v1/matches", {**body, "rated": False, "others": [{"kind": "open"}]})
    assert unrated.status_code == 201 and not Match.objects.get(pk=unrated.json()["match"]["id"]).rated
    created = post_json(c, "/api/v1/matches", body)
    assert created.status_code == 201, created.content
    match_id = created.json()["match"]["id"]
    match = Match.objects.get(pk=match_id)
    assert match.status == "open" and match.turn_seconds == 90 * 60 and match.reserve_periods == 1 and match.rated
    bobs = api_client(token_for(bob))
    assert [m["id"] for m in bobs.get("/api/v1/matches?filter=invited").json()] == [match_id]
    joined = post_json(bobs, f"/api/v1/matches/{match_id}/join", {})
    assert joined.status_code == 200 and joined.json()["match"]["status"] == "active"
    again = post_json(bobs, f"/api/v1/matches/{match_id}/join", {})
    assert again.status_code == 409 and again.json()["detail"]  # already seated is a conflict


def test_create_refuses_what_the_form_refuses(alice, token_for):
    c = api_client(token_for(alice))
    cases = [  # what the schema can say is a 400 from the schema; the rest has its own status
        ({"game": "no-such-game", "others": [{"kind": "open"}]}, 400, "'solitaire-chess'"),
        ({"game": "solitaire-chess", "others": []}, 400, "at least 1 item"),
        ({"game": "solitaire-chess", "others": [{"kind": "bot", "level": "godlike"}]}, 400, "level"),
        ({"game": "solitaire-chess", "others": [{"kind": "invite", "username": "nobody"}]}, 404, "nobody"),
        ({"game": "solitaire-chess", "others": [{"kind": "invite", "username": "alice"}]}, 409, "already"),
        ({"game": "solitaire-chess", "others": [{"kind": "open"}], "clock": {"preset": "custom"}}, 400, "turn_minutes"),
        ({"game": "solitaire-chess", "others": [{"kind": "open"}], "options": {"nope": 1}}, 400, "nope"),
    ]
    for body, status, words in cases:
        response = post_json(c, "/api/v1/matches", body)
        assert response.status_code == status and words in response.json()["detail"], (body, response.content)
    assert not Match.objects.exists()


def test_a_bot_seat_answers_an_api_move(alice, token_for, django_capture_on_commit_callbacks):
    c = api_client(token_for(alice))
    body = {"game": "solitaire-chess", "others": [{"kind": "bot", "level": "random"}]}
    with django_capture_on_commit_callbacks(execute=True):
        created = post_json(c, "/api/v1/matches", body)
    match = Match.objects.get(pk=created.json()["match"]["id"])
    view = c.get(f"/api/v1/matches/{match.pk}/view").json()
    assert view["my_turn"] and view["legal"]
    with django_capture_on_commit_callbacks(execute=True):
        played = post_json(
            c, f"/api/v1/matches/{match.pk}/moves", {"version": view["version"], "move": view["legal"][0]}
        )
    assert played.status_code == 200
    assert Match.objects.get(pk=match.pk).version >= view["version"] + 1


# --- rate limits --------------------------------------------------------------------------------


def test_a_token_over_its_rate_gets_429_with_retry_after(alice, token_for, settings):
    settings.DIZZY_API_RATE_LIMIT = 3
    settings.DIZZY_API_RATE_WINDOW = 60
    c = api_client(token_for(alice))
    assert [c.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 200]
    limited = c.get("/api/v1/me")
    assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 60
    assert "3 per 60 s" in limited.json()["detail"]
    assert api_client(token_for(alice, "another")).get("/api/v1/me").status_code == 200  # per token


# --- bot accounts -------------------------------------------------------------------------------


def test_a_fresh_account_becomes_a_bot_shown_with_a_robot_mark(alice, make_user, client_for, token_for):
    robot = make_user("robot")
    c = client_for(robot)
    assert "Make this a bot account" in c.get("/settings/api/").content.decode()
    c.post("/settings/api/bot/")
    robot.refresh_from_db()
    assert robot.is_bot and robot.public_name == "robot 🤖"
    assert api_client(token_for(robot)).get("/api/v1/me").json()["is_bot"] is True
    match = start_match(alice, [robot])
    assert "robot 🤖" in Client().get(f"/matches/{match.pk}/").content.decode()  # the board's seats
    assert "<h1>robot 🤖</h1>" in client_for(alice).get("/players/robot/").content.decode()  # the profile
    assert "robot 🤖" in client_for(robot).get("/settings/").content.decode()  # the navigation
    # An account that has played cannot become a bot.
    client_for(alice).post("/settings/api/bot/")
    alice.refresh_from_db()
    assert not alice.is_bot


# --- the calendar -------------------------------------------------------------------------------


def test_the_calendar_feed_has_one_event_per_running_match_and_follows_the_deadline(alice, bob, client_for):
    from icalendar import Calendar

    from games import actions

    match = start_match(alice, [bob])
    against_bot = start_match(alice, ["random"])
    alice_to_act = against_bot.seats.get(user=alice).to_act  # waiting on a bot is no deadline of a person
    start_match(bob, ["random"])  # not alice's
    feed = CalendarFeed.for_user(alice)
    url = f"/calendar/{feed.token}.ics"
    response = Client().get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(response.content).walk("VEVENT")
    expected = [match.pk] + ([against_bot.pk] if alice_to_act else [])
    assert [str(e["UID"]) for e in events] == [f"match-{pk}@dizzysite" for pk in expected]
    first_end = events[0].decoded("DTEND")
    mover = user_to_act(match).user
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        actions.do_move(match.pk, mover, 0, first_legal(match, match.seats.get(user=mover).number))
    events = Calendar.from_ical(Client().get(url).content).walk("VEVENT")[:1]
    assert str(events[0]["UID"]) == f"match-{match.pk}@dizzysite" and events[0].decoded("DTEND") != first_end
    assert "to move" in str(events[0]["SUMMARY"]) or "Your move" in str(events[0]["SUMMARY"])
    old = feed.token
    client_for(alice).post("/settings/api/calendar/")
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get("/calendar/forged.ics").status_code == 404


# --- documentation ------------------------------------------------------------------------------


def test_the_schema_and_docs_are_public(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/matches/{match_id}/moves" in schema["paths"]
    docs = client.get("/api/v1/docs")
    # our own page drawn from the schema (tests/api/test_api_docs.py), no longer Swagger UI
    assert docs.status_code == 200 and "<code>POST /api/v1/matches/{match_id}/moves</code>" in docs.content.decode()
    assert "cdn" not in docs.content.decode()


# --- hostile input everywhere -------------------------------------------------------------------


@pytest.mark.slow
def test_hostile_values_anywhere_in_the_api_are_never_a_500(alice, bob, token_for):
    from urllib.parse import quote_from_bytes

    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    raw = token_for(mover)
    c = api_client(raw)
    c.raise_request_exception = False
    m = match.pk
    failures = []
    for label, value in HOSTILE.items():
        text = value.decode("utf-8", "replace")
        quoted = quote_from_bytes(value[:300])
        answers = {
            "body of a move": post_json(c, f"/api/v1/matches/{m}/moves", value),
            "move": post_json(c, f"/api/v1/matches/{m}/moves", b'{"version": 0, "move": ' + value + b"}"),
            "version": post_json(
                c, f"/api/v1/matches/{m}/moves", b'{"move": {"type": "x"}, "version": ' + value + b"}"
            ),
            "body of a new match": post_json(c, "/api/v1/matches", value),
            "game": post_json(c, "/api/v1/matches", {"game": text, "others": [{"kind": "open"}]}),
            "username": post_json(
                c, "/api/v1/matches", {"game": "solitaire-chess", "others": [{"kind": "invite", "username": text}]}
            ),
            "option": post_json(
                c, "/api/v1/matches", {"game": "solitaire-chess", "others": [{"kind": "open"}], "options": {text: text}}
            ),
            "since": c.get(f"/api/v1/matches/{m}/events?since={quoted}"),
            "filter": c.get(f"/api/v1/matches?filter={quoted}"),
            "match id": c.get(f"/api/v1/matches/{quoted}/view"),
            "token": Client(HTTP_AUTHORIZATION="Bearer dzy_" + text).get("/api/v1/me"),
            "calendar": Client().get(f"/calendar/{quoted}.ics"),
        }
        failures += [f"{where}={label}: {r.status_code}" for where, r in answers.items() if r.status_code >= 500]
    assert not failures, "\n".join(failures)
    assert not Move.objects.exists() and Match.objects.count() == 1
