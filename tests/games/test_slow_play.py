"""Slow play: clocks, reserve periods, deadlines swept, vacations, weekend pause (ruling ALL-1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import actions, clock
from games.engines.registry import get_engine
from games.models import Match, Move, Seat
from games.tasks import end_used_up_vacations, sweep_deadlines
from tests.helpers import start_match

pytestmark = pytest.mark.django_db
START = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday


def test_add_clock_time_skips_weekends_in_the_players_zone():
    friday_evening = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    assert clock.add_clock_time(friday_evening, 3600) == datetime(2026, 11, 20, 21, 0, tzinfo=UTC)
    # Four hours left on Friday, so a day of clock time ends Monday at 20:00.
    assert clock.add_clock_time(friday_evening, 86400, True, "UTC") == datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
    # In Tokyo it is already Saturday 05:00 on that Friday evening (UTC): the clock starts Monday 00:00 JST.
    tokyo = clock.add_clock_time(friday_evening, 3600, True, "Asia/Tokyo")
    assert tokyo == datetime(2026, 11, 22, 16, 0, tzinfo=UTC)
    assert clock.clock_seconds_between(friday_evening, datetime(2026, 11, 23, 20, 0, tzinfo=UTC), True) == 86400


def test_in_words():
    assert clock.in_words(30) == "30 seconds"
    assert clock.in_words(3 * 86400 + 5 * 3600 + 60) == "3 days 5 hours"
    assert clock.in_words(61) == "1 minute"


def mover_of(match):
    match.refresh_from_db()
    return match.seats.get(to_act=True)


def past_the_order_choice(match):
    """After the advantage player's order choice (which keeps the turn), turns alternate."""
    if match.state["phase"] == "order":
        play_one(match)
    return match


def play_one(match):
    seat = mover_of(match)
    move = get_engine(match.game).legal_moves(match.state, seat.number)[0]
    actions.do_move(match.pk, seat.user, match.version, move)
    match.refresh_from_db()
    return seat


@time_machine.travel(START, tick=False)
def test_a_turn_starts_the_next_seats_clock(alice, bob):
    match = start_match(alice, [bob])  # daily: 1 day a turn, 5 reserve days
    seat = mover_of(match)
    assert seat.deadline == START + timedelta(days=1) and match.deadline == seat.deadline
    # Reminder when a fifth of turn plus reserve (6 days) is left.
    assert seat.remind_at == START + timedelta(days=6) * 4 / 5
    mover = play_one(match)
    while mover_of(match).number == mover.number:  # the order choice may keep the turn
        play_one(match)
    mover.refresh_from_db()
    assert mover.deadline is None and not mover.to_act
    assert match.seats.get(to_act=True).deadline == START + timedelta(days=1)


def test_reserve_periods_are_spent_before_the_consequence(alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        match = start_match(alice, [bob])
        seat = mover_of(match)
        traveller.move_to(START + timedelta(days=1, hours=1))
        sweep_deadlines()
        seat.refresh_from_db()
        match.refresh_from_db()
        assert seat.reserve_left == 4 and seat.deadline == START + timedelta(days=2)
        assert match.status == Match.Status.ACTIVE and match.version == 0
        traveller.move_to(START + timedelta(days=3, hours=12))  # two more periods pass together
        sweep_deadlines()
        seat.refresh_from_db()
        assert seat.reserve_left == 2 and seat.deadline == START + timedelta(days=4)


def test_death_match_is_lost_on_time_exactly_once(alice, bob):
    """Ruling SC-7: running out of time loses the Death Match; the sweep run twice changes nothing more."""
    with time_machine.travel(START, tick=False) as traveller:
        match = start_match(alice, [bob], options={"ruleset": "death"})
        play_one(match)  # a person has moved: the time-out is scored, not an abort (ruling SITE-ABORT)
        late = mover_of(match)
        traveller.move_to(START + timedelta(days=7))
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert late.number not in match.result["winners"] and match.result["winners"]
        assert Move.objects.filter(match=match, kind="timeout").count() == 1


def test_final_match_timeout_removes_the_players_pieces(alice, bob):
    """Ruling SC-7: in the Final Match the late player's pieces go and they take no more turns."""
    with time_machine.travel(START, tick=False) as traveller:
        match = start_match(alice, [bob], options={"ruleset": "final"})
        play_one(match)  # the order choice
        late = mover_of(match)
        traveller.move_to(START + timedelta(days=7))
        sweep_deadlines()
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
        assert match.state["out"][late.number] is True
        assert match.seats.get(to_act=True).number != late.number


def start_with_seed(monkeypatch, seed: int, creator, others, game: str) -> Match:
    """The same deal every run: the secret seed the match starts with is chosen."""
    monkeypatch.setattr("games.actions.lobby.secrets.randbits", lambda bits: seed)
    match = start_match(creator, others, game=game)
    monkeypatch.undo()
    return match


def play_until_seat_to_act(match: Match, number: int) -> None:
    """The other players play their whole turns themselves, until seat `number` is to act."""
    engine = get_engine(match.game)
    for _ in range(200):
        match.refresh_from_db()
        if number in engine.to_act(match.state):
            return
        seat = match.seats.get(number=engine.to_act(match.state)[0])
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
    raise AssertionError("the turn never came back")


@pytest.mark.parametrize("game, players, seed", [("dizzy-duo-battle", 2, 3), ("lizzy-ghosties", 3, 5)])
def test_late_turns_are_played_by_a_bot_and_the_third_hands_it_the_seat(
    game, players, seed, make_user, client_for, monkeypatch
):
    """Ruling ALL-4, through the deadline sweep, for the two games whose own policy it is: a bot
    plays the whole late turn (every decision of it: a take and a discard, a Lizzy's pass-around)
    and the third timeout in a row hands the seat to a bot for good."""
    engine = get_engine(game)
    assert engine.timeout_policy == "bot"
    users = [make_user(f"p{i}") for i in range(players)]
    decisions = []
    with time_machine.travel(START, tick=False) as traveller:
        match = start_with_seed(monkeypatch, seed, users[0], users[1:], game)
        late = mover_of(match)
        play_one(match)  # the late seat's own first decision: its time-outs are ALL-4's, not SITE-ABORT's
        for round_number in range(1, 4):
            play_until_seat_to_act(match, late.number)
            key, version = engine.turn_key(match.state), match.version
            traveller.shift(timedelta(days=7))
            sweep_deadlines()
            match.refresh_from_db()
            late.refresh_from_db()
            bot_moves = Move.objects.filter(match=match, number__gt=version, seat=late.number, by_bot=True)
            decisions.append(bot_moves.count())
            assert bot_moves.count() == match.version - version >= 1  # only the bot moved, for the late seat
            assert engine.turn_key(match.state) != key  # the whole turn, not its first decision only
            assert late.timeouts_in_row == round_number
            assert late.handed_to_bot is (round_number == 3)
        assert late.bot_level == "normal"
        assert max(decisions) > 1, f"no late turn of several decisions: {decisions}"
        assert "played by a bot" in client_for(late.user).get("/").content.decode()
        page = client_for(users[0]).get(f"/matches/{match.pk}/history/").content.decode()
        assert page.count("ran out of time: a bot plays this turn") == 3


def test_a_move_of_ones_own_resets_the_timeout_count(alice, bob, monkeypatch):
    engine = get_engine("dizzy-duo-battle")
    with time_machine.travel(START, tick=False) as traveller:
        match = start_with_seed(monkeypatch, 3, alice, [bob], "dizzy-duo-battle")
        late = mover_of(match)
        play_one(match)  # a person has moved (ruling SITE-ABORT aborts a match whose first player never moves)
        traveller.shift(timedelta(days=7))
        sweep_deadlines()
        late.refresh_from_db()
        assert late.timeouts_in_row == 1
        play_until_seat_to_act(match, late.number)
        actions.do_move(match.pk, late.user, match.version, engine.legal_moves(match.state, late.number)[0])
        late.refresh_from_db()
        assert late.timeouts_in_row == 0


def test_vacation_pauses_slow_clocks_and_resumes_them(alice, bob, client_for):
    with time_machine.travel(START, tick=False) as traveller:
        match = start_match(alice, [bob])
        seat = mover_of(match)
        user = seat.user
        traveller.shift(timedelta(hours=6))
        client_for(user).post("/settings/vacation/", {"on": "1"})
        seat.refresh_from_db()
        match.refresh_from_db()
        assert seat.deadline is None and seat.paused_seconds == 18 * 3600 and match.deadline is None
        other = client_for(bob if user == alice else alice).get(f"/matches/{match.pk}/").content.decode()
        assert "on vacation" in other
        traveller.shift(timedelta(days=3))
        sweep_deadlines()
        match.refresh_from_db()
        assert match.version == 0 and match.status == Match.Status.ACTIVE
        client_for(user).post("/settings/vacation/", {"on": "0"})
        seat.refresh_from_db()
        assert seat.deadline == START + timedelta(days=3, hours=6 + 18)
        user.refresh_from_db()
        assert user.vacation_seconds_used == 3 * 86400


def test_vacation_allowance_runs_out(alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        start_match(alice, [bob])
        actions.start_vacation(alice)
        traveller.shift(timedelta(days=actions.VACATION_DAYS_PER_YEAR, minutes=1))
        assert end_used_up_vacations() == 1
        alice.refresh_from_db()
        assert alice.vacation_started is None
        with pytest.raises(actions.ActionError, match="used all your vacation"):
            actions.start_vacation(alice)


def test_weekend_pause_moves_the_deadline_past_the_weekend(alice, bob):
    friday = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    with time_machine.travel(friday, tick=False):
        match = actions.create_match(
            alice,
            "solitaire-chess",
            [actions.SeatSpec("me"), actions.SeatSpec("bot", "random")],
            options={"advantage": "0"},  # alice chooses the order: she is to act
            weekend_pause=True,
        )
        seat = Seat.objects.get(match=match, to_act=True)
        assert seat.user == alice
        assert seat.deadline == datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_custom_clock_from_the_form(alice, client_for):
    response = client_for(alice).post(
        "/matches/new/",
        {
            "game": "solitaire-chess",
            "players": "2",
            "seat_1": "open",
            "option_ruleset": "death",
            "option_advantage": "random",
            "time_preset": "custom",
            "turn_minutes": "90",
            "reserve_periods": "2",
            "period_minutes": "30",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.turn_seconds, match.reserve_periods, match.period_seconds) == (5400, 2, 1800)
    missing = client_for(alice).post(
        "/matches/new/",
        {
            "game": "solitaire-chess",
            "players": "2",
            "seat_1": "open",
            "option_ruleset": "death",
            "option_advantage": "random",
            "time_preset": "custom",
        },
    )
    assert missing.status_code == 400 and "A custom clock needs this." in missing.content.decode()


@time_machine.travel(START, tick=False)
def test_board_shows_time_left_in_words_in_the_viewers_zone(alice, bob, client_for):
    alice.time_zone = "Asia/Tokyo"
    alice.save()
    match = start_match(alice, [bob])
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert '<span class="clock-left">1 day</span> left' in page and "Thu 19 Nov, 21:00 JST" in page
    assert "5 reserve periods of 1 day" in page


def test_turn_count_in_navigation(alice, bob, client_for):
    match = start_match(alice, [bob])
    mover = mover_of(match).user
    assert "Your turn: 1" in client_for(mover).get("/").content.decode()
    fragment = client_for(mover).get("/turns/").content.decode()
    assert fragment.startswith('<a id="turn-count"') and 'data-count="1"' in fragment


def test_a_lost_bot_task_is_asked_again_by_the_sweep_not_timed_out(alice, django_capture_on_commit_callbacks):
    """A bot seat's deadline is short and only recovers a lost task: the bot is never lost on time."""
    with time_machine.travel(START, tick=False) as traveller:
        match = actions.create_match(
            alice,
            "solitaire-chess",
            [actions.SeatSpec("me"), actions.SeatSpec("bot", "random")],
            options={"advantage": "1", "ruleset": "death"},  # the bot acts first; its task is "lost"
        )
        bot_seat = Seat.objects.get(match=match, number=1)
        assert bot_seat.to_act and bot_seat.deadline == START + timedelta(seconds=actions.BOT_GRACE_SECONDS)
        traveller.shift(timedelta(minutes=5))
        with django_capture_on_commit_callbacks(execute=True):
            sweep_deadlines()
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE and match.version >= 1
        assert not Move.objects.filter(match=match, kind="timeout").exists()


def test_doubting_flower_field_is_lost_on_time_from_the_first_decision(alice, bob):
    """Issue: slow play. A Flower Field player whose time runs out loses the match, from their first
    decision on once a person has moved (before that, ruling SITE-ABORT aborts the match)."""
    with time_machine.travel(START, tick=False) as traveller:
        match = start_match(alice, [bob], game="doubting-flower-field")
        play_one(match)  # the order; both hide their flowers next, and the first seat's time-out is applied first
        late = match.seats.filter(to_act=True).first()
        traveller.move_to(START + timedelta(days=7))
        assert sweep_deadlines() == 1
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.result["winners"] == [1 - late.number]
        assert Move.objects.filter(match=match, kind="timeout", seat=late.number).count() == 1
