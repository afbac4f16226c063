"""Celery tasks: they take ids, re-read the match, and do nothing if it has moved on."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from games import actions
from games.models import Match

logger = logging.getLogger(__name__)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5)
def play_bot_moves(match_id: int, version: int) -> None:
    """One bot seat that is to act at this version moves.

    Its move is queued again by the action if another bot is then to act (a chain of bot turns,
    or the other seat of a simultaneous step). Run twice, the second run finds a newer version
    and does nothing."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE, version=version).first()
    if match is None:
        return
    seat = next((s for s in match.seats.filter(to_act=True) if s.is_bot), None)
    if seat is None:
        return
    move = actions.choose_bot_move(match, seat.number, seat.bot_level)
    try:
        actions.do_bot_move(match_id, seat.number, version, move)
    except actions.StaleVersion:
        return
    except actions.ActionError as error:
        logger.error("bot move refused in match %s seat %s: %s (%s)", match_id, seat.number, error, move)


@shared_task
def sweep_deadlines() -> int:
    """Every minute (beat): apply passed deadlines. Reads the indexed Match.deadline column;
    each match is handled in its own transaction with its row locked and its version checked,
    so two sweeps or two workers at once change nothing twice."""
    from django.utils import timezone

    due = list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=timezone.now())
        .order_by("deadline")
        .values_list("pk", "version")[:500]
    )
    for match_id, version in due:
        try:
            actions.do_deadlines(match_id, version)
        except Exception:  # one broken match must not stop the sweep of the others
            logger.exception("deadline of match %s", match_id)
    return len(due)


@shared_task
def send_reminders() -> int:
    from django.utils import timezone

    from games.models import Seat

    match_ids = set(
        Seat.objects.filter(to_act=True, remind_at__lte=timezone.now(), match__status=Match.Status.ACTIVE).values_list(
            "match_id", flat=True
        )[:500]
    )
    return sum(actions.do_reminders(match_id) for match_id in sorted(match_ids))


@shared_task
def end_used_up_vacations() -> int:
    from accounts.models import User

    ended = 0
    for user in User.objects.filter(vacation_started__isnull=False):
        if actions.vacation_seconds_left(user) <= 0:
            actions.end_vacation(user)
            ended += 1
    return ended
