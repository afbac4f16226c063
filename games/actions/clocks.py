"""The seats' clocks (ruling ALL-1): starting, extending and stopping a turn's clock, reminders, deadline tasks."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import clock
from games.models import Match, Seat
from games.queue import queue_on_commit


def seat_zone(seat: Seat) -> str:
    return seat.user.time_zone if seat.user_id else "UTC"


def _on_vacation(match: Match, seat: Seat) -> bool:
    return match.time_preset != "live" and seat.user_id is not None and seat.user.vacation_started is not None


BOT_GRACE_SECONDS = 120  # a bot seat answers at once; its deadline only catches a lost task


def start_turn_clock(match: Match, seat: Seat, now) -> None:
    """A seat's turn begins: its deadline is a turn's time away, or paused while on vacation."""
    seat.turn_started = now
    if seat.is_bot:
        seat.deadline, seat.remind_at, seat.paused_seconds = now + timedelta(seconds=BOT_GRACE_SECONDS), None, None
        return
    if _on_vacation(match, seat):
        seat.deadline, seat.remind_at, seat.paused_seconds = None, None, match.turn_seconds
        return
    seat.paused_seconds = None
    seat.deadline = clock.add_clock_time(now, match.turn_seconds, match.weekend_pause, seat_zone(seat))
    set_reminder(match, seat, now)


def set_reminder(match: Match, seat: Seat, now) -> None:
    """Remind when a fifth of the time this turn may still take (turn time plus reserve) is left; never
    in a live match (the player is at the board)."""
    if seat.is_bot or seat.deadline is None or clock.is_live(match.turn_seconds):
        seat.remind_at = None
        return
    total = clock.clock_seconds_between(now, seat.deadline, match.weekend_pause, seat_zone(seat))
    total += seat.reserve_left * match.period_seconds
    final = clock.add_clock_time(now, total, match.weekend_pause, seat_zone(seat))
    seat.remind_at = final - (final - now) / 5


def add_turn_time(match: Match, seat: Seat, seconds: int, now) -> None:
    """A move that gives its player more time on the running turn (games.clock.extra_seconds)."""
    if seat.is_bot:
        return
    if seat.deadline is not None:
        seat.deadline = clock.add_clock_time(seat.deadline, seconds, match.weekend_pause, seat_zone(seat))
        set_reminder(match, seat, now)
    elif seat.paused_seconds is not None:
        seat.paused_seconds += seconds


DEADLINE_TASK_SECONDS = 600  # a deadline nearer than this gets a task for its own second


def queue_deadline_task(match: Match, seats: list[Seat], previous) -> None:
    """After the commit, a worker applies the match's new deadline at its second (games.tasks.enforce_deadline).

    For a deadline under DEADLINE_TASK_SECONDS away (a countdown the worker holds, far inside the
    broker's visibility timeout) that a player's turn set; the minute sweep stays the backstop for
    longer ones, bot seats' and lost tasks. The task does nothing once the deadline has moved."""
    deadline = match.deadline
    if deadline is None or deadline == previous or match.status != Match.Status.ACTIVE:
        return
    if deadline - timezone.now() > timedelta(seconds=DEADLINE_TASK_SECONDS):
        return
    if not any(seat.to_act and not seat.is_bot and seat.deadline == deadline for seat in seats):
        return
    queue_on_commit("games.tasks.enforce_deadline", match.pk, deadline.isoformat(), eta=deadline)


def stop_turn_clock(seat: Seat) -> None:
    seat.turn_started = seat.deadline = seat.remind_at = seat.paused_seconds = None


def earliest_deadline(seats: list[Seat]):
    deadlines = [s.deadline for s in seats if s.to_act and s.deadline is not None]
    return min(deadlines) if deadlines else None
