"""Deadlines and reminders, from the beat sweep and the deadline tasks (rulings ALL-1, ALL-4, SC-7)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import clock
from games.actions.bots import choose_bot_move, queue_bot_moves
from games.actions.clocks import BOT_GRACE_SECONDS, earliest_deadline, queue_deadline_task, seat_zone
from games.actions.common import lock_match, save_board_change
from games.actions.moderation import abort_locked
from games.actions.play import Step, record_play, record_timeout
from games.engines.base import Engine
from games.engines.registry import get_bots
from games.engines.words import Msg, gettext_noop
from games.events import ReminderDue, SeatHandedToBot, publish
from games.models import Match, Move, Seat
from games.reads import engine_of, seats_with_users


def _engine_timeout(match: Match, engine: Engine, seat_number: int) -> None:
    """The game's own consequence of running out of time, recorded as a timeout move (replayable)."""
    state, entries = engine.apply_timeout(match.state, seat_number)
    record_timeout(match, engine, seat_number, state, entries)


TIMEOUTS_BEFORE_BOT = 3  # ruling ALL-4

NEVER_MOVED = gettext_noop("Aborted: {name} never made a first move.")


def _abort_unplayed(match: Match, seat: Seat) -> None:
    """Ruling SITE-ABORT: the first player ran out of time with no move made; no one has played, so
    nothing is scored: the match is aborted, not rated."""
    abort_locked(match, Msg(NEVER_MOVED, name=seat.public_name))


def do_deadlines(match_id: int, version: int) -> list[str]:
    """Apply what passed deadlines mean for this match, as the sweep found it at `version`.

    First a late seat spends reserve periods; with none left, the game's consequence: the engine's
    (lost on time, SC-7) or, for the Dizzy games, a bot plays the late turn (ALL-4), and after three
    timeouts in a row the bot keeps the seat. Returns what happened, for the log."""
    done: list[str] = []
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.ACTIVE or match.version != version:
            return done  # moved on since the sweep looked: nothing to do
        now = timezone.now()
        engine = engine_of(match)
        seats = list(match.seats.select_related("user"))
        late = []
        for seat in seats:
            if not seat.to_act or seat.deadline is None or seat.deadline > now:
                continue
            if seat.is_bot:  # its task was lost (a worker died, a locked database): ask again
                seat.deadline = now + timedelta(seconds=BOT_GRACE_SECONDS)
                seat.save(update_fields=["deadline"])
                queue_bot_moves(match)
                done.append(f"asked bot seat {seat.number} again")
                continue
            while seat.deadline <= now and seat.reserve_left > 0:
                seat.reserve_left -= 1
                seat.deadline = clock.add_clock_time(
                    seat.deadline, match.period_seconds, match.weekend_pause, seat_zone(seat)
                )
                done.append(f"seat {seat.number} spent a reserve period")
            seat.save(update_fields=["reserve_left", "deadline"])
            if seat.deadline <= now:
                late.append(seat.number)
        previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
        if done:  # a reserve period started (or a bot was asked again): the board's clock moved
            save_board_change(match, fields=["deadline"])
        else:
            match.save(update_fields=["deadline"])
        if not late:  # a consequence below runs the clocks (and queues) again
            queue_deadline_task(match, seats, previous_deadline)
        # A running match's moves are always rows (only an ended one is archived): no need of the reader.
        if late and match.abortable and not Move.objects.filter(match=match, by_bot=False).exists():
            _abort_unplayed(match, next(s for s in seats if s.number == late[0]))  # ruling SITE-ABORT
            return [*done, "aborted: the first player never moved"]
        for number in late:
            if match.status != Match.Status.ACTIVE or number not in engine.to_act(match.state):
                continue
            seat = next(s for s in seats if s.number == number)
            if engine.timeout_policy == "engine":
                _engine_timeout(match, engine, number)
                done.append(f"seat {number} timed out")
                continue
            _bot_plays_late_turn(match, engine, seat)
            done.append(f"a bot played seat {number}'s late turn")
    return done


def _bot_plays_late_turn(match: Match, engine: Engine, seat: Seat) -> None:
    """Ruling ALL-4: a bot plays the whole late turn; the third timeout in a row gives it the seat."""
    level = "normal" if "normal" in get_bots(engine.slug) else "random"
    key = engine.turn_key(match.state)
    first = True
    for _ in range(200):  # one turn's decisions
        if match.status != Match.Status.ACTIVE or seat.number not in engine.to_act(match.state):
            break
        if not first and (key is None or engine.turn_key(match.state) != key):
            break
        move = choose_bot_move(match, seat.number, level)
        state, entries = engine.apply(match.state, seat.number, move)
        if first:
            entries = [
                {"text": f"{{p{seat.number}}} ran out of time: a bot plays this turn.", "audience": "all"}
            ] + entries
        first = False
        record_play(match, engine, Step(seat.number, Move.Kind.MOVE, move, state, entries, by_bot=True))
    seat.refresh_from_db()
    seat.timeouts_in_row += 1
    if seat.timeouts_in_row >= TIMEOUTS_BEFORE_BOT and not seat.handed_to_bot:
        seat.handed_to_bot, seat.bot_level = True, level
        seat.save(update_fields=["timeouts_in_row", "handed_to_bot", "bot_level"])
        seats = tuple(seats_with_users(match))
        publish(SeatHandedToBot(match, match.version, seats=seats, seat=seat.number, reason=SeatHandedToBot.TIMEOUTS))
        if seat.to_act:
            queue_bot_moves(match)
    else:
        seat.save(update_fields=["timeouts_in_row"])


def do_reminders(match_id: int) -> int:
    """Publish the "time is running out" reminders due in this match (once per turn; the notifications
    app writes their rows and emails). Returns how many were due for players."""
    sent = 0
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return 0
        for seat in match.seats.filter(to_act=True, remind_at__lte=timezone.now()).select_related("user"):
            seat.remind_at = None
            seat.save(update_fields=["remind_at"])
            if seat.user_id and not seat.is_bot:
                publish(ReminderDue(match, match.version, seat=seat.number, user=seat.user))
                sent += 1
    return sent
