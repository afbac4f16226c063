"""Vacations: 14 days a year that pause a player's clocks in every slow match."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import clock
from games.actions.clocks import earliest_deadline, queue_deadline_task, seat_zone, set_reminder
from games.actions.common import ActionError, lock_match, save_board_change
from games.models import Match, Seat

VACATION_DAYS_PER_YEAR = 14


def vacation_seconds_left(user: User, *, now=None) -> int:
    now = now or timezone.now()
    used = user.vacation_seconds_used if user.vacation_year == now.year else 0
    if user.vacation_started is not None:
        used += int((now - user.vacation_started).total_seconds())
    return max(0, VACATION_DAYS_PER_YEAR * 86400 - used)


def start_vacation(user: User) -> None:
    """Pause the player's clocks in every slow match (not live ones)."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_started is not None:
            raise ActionError(gettext("Your vacation has already started."))
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_seconds_used = now.year, 0
        if vacation_seconds_left(user, now=now) <= 0:
            raise ActionError(gettext("You have used all your vacation days this year."))
        user.vacation_started = now
        user.save(update_fields=["vacation_started", "vacation_year", "vacation_seconds_used"])

        def pause(match: Match, seat: Seat) -> None:
            if seat.deadline is not None:
                seat.paused_seconds = clock.clock_seconds_between(
                    now, seat.deadline, match.weekend_pause, seat_zone(seat)
                )
                seat.deadline = seat.remind_at = None

        _change_clocks(user, pause)


def end_vacation(user: User) -> None:
    """Run the player's paused clocks again from where they stopped."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_started is None:
            return
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_seconds_used = now.year, 0
        user.vacation_seconds_used += int((now - user.vacation_started).total_seconds())
        user.vacation_started = None
        user.save(update_fields=["vacation_started", "vacation_year", "vacation_seconds_used"])

        def resume(match: Match, seat: Seat) -> None:
            if seat.paused_seconds is not None:
                seat.deadline = clock.add_clock_time(now, seat.paused_seconds, match.weekend_pause, seat_zone(seat))
                seat.paused_seconds = None
                set_reminder(match, seat, now)

        _change_clocks(user, resume)


def _change_clocks(user: User, change) -> None:
    """Apply `change(match, seat)` to the user's running clocks in slow matches, one match locked at a time."""
    for match_id in _slow_matches_to_act(user):
        match = lock_match(match_id)
        seats = list(match.seats.select_related("user"))
        for seat in seats:
            if seat.user_id == user.pk and seat.to_act:
                change(match, seat)
                seat.save(update_fields=["paused_seconds", "deadline", "remind_at"])
        previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
        save_board_change(match, fields=["deadline"])
        queue_deadline_task(match, seats, previous_deadline)


def _slow_matches_to_act(user: User) -> list[int]:
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user, seats__to_act=True)
        .exclude(time_preset="live")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
