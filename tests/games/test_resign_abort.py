"""Resigning (ruling SITE-RESIGN) and aborting (ruling SITE-ABORT), on the board and through
the API, in every game; their ratings, their notifications, the record and the replay; the worker's
abort of a match whose first player never moved."""

from __future__ import annotations

import json
import random

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from api.models import ApiToken
from games import actions
from games.engines.registry import get_engine
from games.models import HISTORY_TAIL, Match, Move, Seat
from games.reads import can_abort
from moderation.models import ModerationLog
from notifications.models import Kind, Notification
from ratings.actions import teams_and_ranks
from ratings.models import RatingChange
from ratings.replay import build_record, check_record
from tests.helpers import first_legal, make_late, play_first_move, start_match, user_to_act

pytestmark = pytest.mark.django_db

GAMES = ["solitaire-chess", "doubting-flower-field", "dizzy-duo-battle", "lizzy-ghosties"]
TWO_PLAYER = ["solitaire-chess", "doubting-flower-field", "dizzy-duo-battle"]  # Dizzy Duo Battle 2-handed too
BIGGER = [("dizzy-duo-battle", 3), ("lizzy-ghosties", 3)]
SHORT = {"dizzy-duo-battle": {"lives": 2}}


def players_for(game: str, make_user, count: int | None = None) -> list:
    count = count or get_engine(game).min_players
    return [make_user(name) for name in ["alice", "bob", "carol", "dave", "erin"][:count]]


def api(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'test')[1]}")


def finished_to(user, match: Match) -> bool:
    return Notification.objects.filter(match=match, recipient=user, kind=Kind.FINISHED).exists()


def every_seat_moves_once(match: Match) -> Match:
    """People play until every seat has made a move of its own (aborting is then over)."""
    engine = get_engine(match.game)
    seats = {s.number: s.user for s in match.seats.all()}
    moved: set[int] = set()
    for _ in range(200):
        match.refresh_from_db()
        if moved >= set(seats):
            return match
        number = engine.to_act(match.state)[0]
        actions.do_move(match.pk, seats[number], match.version, first_legal(match, number))
        moved.add(number)
    raise AssertionError("some seat never got a turn")


# --- resigning in a game of two ----------------------------------------------------------------------


@pytest.mark.parametrize("game", TWO_PLAYER)
def test_resigning_on_the_board_ends_a_game_of_two_the_other_wins_rated_and_told(
    game, alice, bob, carol, client_for, django_capture_on_commit_callbacks
):
    match = start_match(alice, [bob], game=game)
    alices = client_for(alice)
    confirm = alices.get(f"/matches/{match.pk}/resign/")  # the confirmation step: a page, no change
    page = confirm.content.decode()
    assert confirm.status_code == 200 and 'method="post"' in page and "the other player wins" in page
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    board = alices.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/resign/"' in board
    assert f'href="/matches/{match.pk}/resign/"' not in client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = alices.post(f"/matches/{match.pk}/resign/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    alice_seat = match.seats.get(user=alice).number
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [1 - alice_seat]
    assert match.end_reason == "alice resigned."
    # Ratings follow: alice lost, bob won.
    assert RatingChange.objects.get(match=match, seat=alice_seat).outcome == "lost"
    assert RatingChange.objects.get(match=match, seat=1 - alice_seat).outcome == "won"
    # Bob hears of it as of any other end: the inbox row behind the email and the push.
    assert finished_to(bob, match)
    row = Notification.objects.get(match=match, recipient=bob, kind=Kind.FINISHED)
    assert row.status == Notification.Status.SENT
    assert any(m.to == [bob.email] and "alice resigned." in m.body for m in mail.outbox)  # the email
    assert f"A match has finished: {match.game_name} #{match.pk}" in client_for(bob).get("/inbox/").content.decode()
    assert "alice resigned." in client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    # The record and the replay keep it: a step of kind "resign" that the replay passes over.
    step = Move.objects.get(match=match, kind=Move.Kind.RESIGN)
    assert step.seat == alice_seat and step.number == match.version
    record = build_record(match)
    assert record["moves"][-1]["kind"] == "resign" and record["end_reason"] == "alice resigned."
    assert record["ended_by"] == "resigned" and not record["adjudicated"]
    # It replays; the site applied the end.
    assert check_record(json.loads(json.dumps(record))).endswith("the match was resigned: alice resigned.")
    assert "alice resigned." in client_for(bob).get(f"/matches/{match.pk}/history/").content.decode()
    assert client_for(carol).get(f"/matches/{match.pk}/replay/").status_code == 200
    # Once over, no more resigning.
    again = alices.post(f"/matches/{match.pk}/resign/")
    assert again.status_code == 409 and Move.objects.filter(match=match, kind="resign").count() == 1


@pytest.mark.parametrize("game", TWO_PLAYER)
def test_resigning_through_the_api_ends_a_game_of_two(game, alice, bob, carol):
    match = start_match(alice, [bob], game=game)
    assert api(carol).post(f"/api/v1/matches/{match.pk}/resign").status_code == 403  # no seat
    assert api(carol).post("/api/v1/matches/999999/resign").status_code == 404
    answer = api(bob).post(f"/api/v1/matches/{match.pk}/resign")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["match"]["status"] == "finished" and body["match"]["end_reason"] == "bob resigned."
    match.refresh_from_db()
    bob_seat = match.seats.get(user=bob).number
    assert match.result["winners"] == [1 - bob_seat]
    assert RatingChange.objects.get(match=match, seat=bob_seat).outcome == "lost"
    assert finished_to(alice, match)
    # The API says who resigned, as the board does: its seats are the board's SeatInfo.
    seats = {seat["number"]: seat for seat in api(alice).get(f"/api/v1/matches/{match.pk}").json()["seats"]}
    assert seats[bob_seat]["resigned"] is True and seats[1 - bob_seat]["resigned"] is False
    again = api(bob).post(f"/api/v1/matches/{match.pk}/resign")
    assert again.status_code == 409 and again.json()["detail"]


# --- resigning in a bigger game -----------------------------------------------------------------------


def play_to_the_end(match: Match, capture) -> Match:
    """Random legal moves by the people; the bot seats move in the worker (eager, after each commit)."""
    rng = random.Random(3)
    engine = get_engine(match.game)
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        seat = match.seats.select_related("user").filter(to_act=True, bot_level="").first()
        assert seat is not None, "a bot seat is to act but did not move"
        with capture(execute=True):
            actions.do_move(
                match.pk, seat.user, match.version, rng.choice(engine.legal_moves(match.state, seat.number))
            )
    raise AssertionError("the match did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game, players", BIGGER)
@pytest.mark.parametrize("where", ["board", "api"])
def test_resigning_a_bigger_game_hands_the_seat_to_a_bot_and_ranks_the_player_last(
    game, players, where, make_user, client_for, django_capture_on_commit_callbacks
):
    users = players_for(game, make_user, players)
    match = start_match(users[0], users[1:], game=game, options=SHORT.get(game))
    resigner = user_to_act(match).user  # resigning on one's own turn: the bot plays it at once
    with django_capture_on_commit_callbacks(execute=True):
        if where == "board":
            assert (
                "a normal bot plays your seat"
                in client_for(resigner).get(f"/matches/{match.pk}/resign/").content.decode()
            )
            assert client_for(resigner).post(f"/matches/{match.pk}/resign/").status_code == 302
        else:
            assert api(resigner).post(f"/api/v1/matches/{match.pk}/resign").status_code == 200
    match.refresh_from_db()
    seat = Seat.objects.get(match=match, user=resigner)
    assert seat.resigned and seat.handed_to_bot and seat.bot_level == "normal"
    assert match.status == Match.Status.ACTIVE
    assert Move.objects.filter(match=match, seat=seat.number, by_bot=True).exists()  # the bot played on
    others = [u for u in users if u != resigner]
    page = client_for(others[0]).get(f"/matches/{match.pk}/").content.decode()
    assert f"{resigner.username} resigned: a bot plays the seat to the end" in page and "resigned</span>" in page
    # No second resignation, and the resigner has no board controls left.
    assert client_for(resigner).post(f"/matches/{match.pk}/resign/").status_code == 409
    match = play_to_the_end(match, django_capture_on_commit_callbacks)
    assert match.status == Match.Status.FINISHED
    assert RatingChange.objects.get(match=match, seat=seat.number).outcome == "lost"
    # Ranked last whatever the bot did: below every other seat.
    numbers = [s.number for s in match.seats.all()]
    teams, ranks = teams_and_ranks(match.game, match.result, numbers, resigned=frozenset({seat.number}))
    rank_of = {n: rank for team, rank in zip(teams, ranks) for n in team}
    assert all(rank_of[seat.number] > rank_of[n] for n in numbers if n != seat.number)
    for user in others:
        assert finished_to(user, match)
    assert "won" not in {c.outcome for c in RatingChange.objects.filter(match=match, seat=seat.number)}
    assert "resigned" in client_for(others[0]).get(f"/matches/{match.pk}/").content.decode()
    assert check_record(json.loads(json.dumps(build_record(match))))  # the replay passes over the resignation


def test_a_resigned_seat_ranks_last_even_among_the_winners():
    teams, ranks = teams_and_ranks(
        "dizzy-duo-battle", {"winners": [1], "draw": False}, [0, 1, 2], resigned=frozenset({1})
    )
    assert dict(zip(map(tuple, teams), ranks)) == {(0,): 1, (2,): 1, (1,): 2}  # the winner resigned: the rest tie
    teams, ranks = teams_and_ranks(
        "lizzy-ghosties", {"winners": [0, 1], "draw": False}, [0, 1, 2, 3], resigned=frozenset({0})
    )
    assert dict(zip(map(tuple, teams), ranks)) == {(1,): 1, (2, 3): 2, (0,): 3}


# --- aborting ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["board", "api"])
def test_either_player_aborts_before_every_seat_moved_no_result_no_rating(
    game, where, make_user, client_for, django_capture_on_commit_callbacks
):
    users = players_for(game, make_user)
    match = start_match(users[0], users[1:], game=game)
    aborter = users[-1]  # not the first to act: either player may
    board = client_for(aborter).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/abort/"' in board
    assert client_for(aborter).get(f"/matches/{match.pk}/abort/").status_code == 200
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE  # GET only asks
    with django_capture_on_commit_callbacks(execute=True):
        if where == "board":
            assert client_for(aborter).post(f"/matches/{match.pk}/abort/").status_code == 302
        else:
            answer = api(aborter).post(f"/api/v1/matches/{match.pk}/abort")
            assert answer.status_code == 200 and answer.json()["match"]["status"] == "aborted"
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None
    assert match.end_reason == f"Aborted by {aborter.username} before every player had moved."
    assert not RatingChange.objects.filter(match=match).exists()
    assert not match.seats.filter(to_act=True).exists()
    for user in users[:-1]:
        assert finished_to(user, match)
        board = client_for(user).get(f"/matches/{match.pk}/").content.decode()
        assert "before every player had moved" in board
        assert ">to move<" not in board  # nobody is to move in an aborted match
        assert "Aborted: Aborted" not in board  # the reason says it once
        home = client_for(user).get("/").content.decode()
        assert f"Aborted by {aborter.username}" in home and "Aborted: Aborted" not in home
    assert not finished_to(aborter, match)  # they know


@pytest.mark.parametrize("game", GAMES)
def test_no_abort_once_every_seat_has_moved(game, make_user, client_for):
    users = players_for(game, make_user)
    match = every_seat_moves_once(start_match(users[0], users[1:], game=game))
    assert match.status == Match.Status.ACTIVE
    board = client_for(users[0]).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/abort/"' not in board and f'href="/matches/{match.pk}/resign/"' in board
    assert client_for(users[0]).post(f"/matches/{match.pk}/abort/").status_code == 409
    answer = api(users[1]).post(f"/api/v1/matches/{match.pk}/abort")
    assert answer.status_code == 409 and "resign" in answer.json()["detail"]
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def test_outsiders_and_bot_accounts_cannot_abort_or_resign_on_the_board(alice, bob, carol, make_user, client_for):
    match = start_match(alice, [bob])
    assert client_for(carol).get(f"/matches/{match.pk}/resign/").status_code == 403
    assert client_for(carol).post(f"/matches/{match.pk}/abort/").status_code == 403
    assert client_for(carol).post(f"/matches/{match.pk}/resign/").status_code == 403
    anonymous = Client().post(f"/matches/{match.pk}/resign/")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    bot_account = make_user("robo", is_bot=True)
    assert client_for(bot_account).post(f"/matches/{match.pk}/resign/").status_code == 403
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert client_for(alice).put(f"/matches/{match.pk}/resign/").status_code == 405


def test_the_worker_aborts_a_match_whose_first_player_never_moved(alice, bob, django_capture_on_commit_callbacks):
    match = start_match(alice, [bob], options={"ruleset": "death"})  # on time, the Death Match is lost (SC-7)
    make_late(match)
    with django_capture_on_commit_callbacks(execute=True):
        done = actions.do_deadlines(match.pk, match.version)
    assert done[-1] == "aborted: the first player never moved"
    match.refresh_from_db()
    late = user_to_act(match)
    assert late is None  # nobody is to act any more
    assert match.status == Match.Status.ABORTED and match.result is None
    assert "never made a first move" in match.end_reason
    assert not RatingChange.objects.filter(match=match).exists()
    assert not Move.objects.filter(match=match).exists()
    assert finished_to(alice, match) and finished_to(bob, match)
    assert actions.do_deadlines(match.pk, match.version) == []  # run twice: nothing more


def test_once_a_person_moved_a_timeout_is_scored_not_aborted(alice, bob):
    match = play_first_move(start_match(alice, [bob], options={"ruleset": "death"}))
    make_late(match)
    actions.do_deadlines(match.pk, match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and RatingChange.objects.filter(match=match).count() == 2


def test_an_admins_abort_reaches_the_players_and_the_moderation_log(
    alice, bob, make_user, client_for, django_capture_on_commit_callbacks
):
    staff = make_user("mod", is_staff=True, is_superuser=True)
    match = start_match(alice, [bob])
    data = {"action": "abort_matches", "_selected_action": [match.pk], "apply": "1", "reason": "asked"}
    with django_capture_on_commit_callbacks(execute=True):
        client_for(staff).post("/admin/games/match/", data)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert finished_to(alice, match) and finished_to(bob, match)
    assert ModerationLog.objects.filter(match=match, action="abort match", reason="asked").exists()


def test_a_late_board_reads_no_moves_to_know_every_seat_moved(alice, bob, client_for):
    """Past the history tail, the seats seen in it have moved: the Move rows are read only for a seat
    that is not in it (the board makes the same queries at move 1 and late)."""
    match = every_seat_moves_once(start_match(alice, [bob]))
    tail = [{**match.history_tail[-1], "number": n, "seat": n % 2} for n in range(HISTORY_TAIL)]
    Match.objects.filter(pk=match.pk).update(version=HISTORY_TAIL + 10, history_tail=tail)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as taking_turns:
        assert not can_abort(match, list(match.seats.all()))
    assert not [q for q in taking_turns.captured_queries if "games_move" in q["sql"]]
    # Seat 1 is not in the tail: its Move rows answer (it moved once, at the start).
    Match.objects.filter(pk=match.pk).update(history_tail=[{**step, "seat": 0} for step in tail])
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as one_missing:
        assert not can_abort(match, list(match.seats.all()))
    assert len([q for q in one_missing.captured_queries if "games_move" in q["sql"]]) == 1
    Move.objects.filter(match=match, seat=1).delete()  # ... and had it never moved, it may still abort
    assert can_abort(match, list(match.seats.all()))
