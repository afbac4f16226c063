"""Celery tasks: they take ids, re-read the match, and do nothing if it has moved on."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import uuid4

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError

from games import actions
from games.models import Match

logger = logging.getLogger(__name__)


@shared_task(name="games.tasks.play_bot_moves", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5)
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


SWEEP_LOOKAHEAD_SECONDS = 90  # more than the sweep's minute: every deadline gets a task for its second
# The deadline timer's lease in the cache: the token of the one enforce_coming_deadlines chain that
# carries on, held until a minute after its next wake. A lost timer (a worker gone with its message,
# the cache emptied) lets the lease lapse, and the next sweep starts another. With the cache out of
# reach, both tasks fail after applying what is due: deadlines are then a minute late at worst.
TIMER_KEY = "games:deadline-timer"
TIMER_GRACE_SECONDS = 60


def apply_due_deadlines(now: datetime) -> int:
    """The passed deadlines, oldest first: each match in its own transaction with its row locked and
    its version checked (actions.do_deadlines), so two runs at once change nothing twice."""
    due = list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "version")[:500]
    )
    for match_id, version in due:
        try:
            actions.do_deadlines(match_id, version)
        except Exception:  # one broken match must not stop the others
            logger.exception("deadline of match %s", match_id)
    return len(due)


def next_deadline(after: datetime) -> datetime | None:
    """The first running match's deadline in the SWEEP_LOOKAHEAD_SECONDS after `after`, from the
    deadline index."""
    return (
        Match.objects.filter(
            status=Match.Status.ACTIVE,
            deadline__gt=after,
            deadline__lte=after + timedelta(seconds=SWEEP_LOOKAHEAD_SECONDS),
        )
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )


def lease_seconds(wake: datetime, now: datetime) -> float:
    return (wake - now).total_seconds() + TIMER_GRACE_SECONDS


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Every minute (beat): apply passed deadlines. Reads the indexed Match.deadline column.

    While no deadline timer holds the lease, it also starts one (enforce_coming_deadlines) at the
    first deadline of the next SWEEP_LOOKAHEAD_SECONDS, so a long clock's deadline, too, is applied at
    its second, not up to a minute late. A run while a timer is going sends nothing (issue
    28: a countdown task for each deadline made the sweep grow with the running matches)."""
    from django.utils import timezone

    now = timezone.now()
    applied = apply_due_deadlines(now)
    if cache.get(TIMER_KEY) is None:
        first, token = next_deadline(now), uuid4().hex
        # add, not set: of two sweeps that both found no timer, one starts it.
        if first is not None and cache.add(TIMER_KEY, token, timeout=lease_seconds(first, now)):
            enforce_coming_deadlines.apply_async((token,), eta=first)
    return applied


@shared_task(
    name="games.tasks.enforce_coming_deadlines",
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=2,
    max_retries=5,
)
def enforce_coming_deadlines(self, token: str) -> int:
    """The deadline timer: applies what is due, then, while it holds the lease, queues itself for the
    next deadline of the coming SWEEP_LOOKAHEAD_SECONDS, one message at a time; with none, it stops
    and the sweep starts the next. Run twice, a deadline is applied once (do_deadlines checks the
    version and the time), and a timer whose lease another took stops."""
    from django.utils import timezone

    now = timezone.now()
    applied = apply_due_deadlines(now)
    if cache.get(TIMER_KEY) != token:
        return applied
    following = next_deadline(now)
    if following is None:
        cache.delete(TIMER_KEY)
    elif not self.request.is_eager:  # an eager run cannot wait: the sweep is the backstop
        cache.set(TIMER_KEY, token, timeout=lease_seconds(following, now))
        enforce_coming_deadlines.apply_async((token,), eta=following)
    return applied


@shared_task(
    name="games.tasks.enforce_deadline", bind=True, autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5
)
def enforce_deadline(self, match_id: int, deadline: str) -> list[str]:
    """At a match's deadline: what the minute sweep would do for this match, at the second.

    Queued with eta=deadline when a short deadline starts (games.actions.queue_deadline_task) and by
    the sweep for the coming minute. It re-reads the match: once the deadline has moved (the turn went
    on, a reserve period started and queued its own task, the match ended) it does nothing; otherwise
    actions.do_deadlines locks the row, checks the version and the time, and applies it. Run twice,
    the second run finds the deadline moved."""
    from django.utils import timezone

    when = datetime.fromisoformat(deadline)
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE, deadline=when).first()
    if match is None:
        return []
    if when > timezone.now():  # here early (this worker's clock is behind the web's): again at the deadline
        if not self.request.is_eager:  # an eager run (tests) cannot wait: the sweep is the backstop there
            enforce_deadline.apply_async((match_id, deadline), eta=when)
        return []
    return actions.do_deadlines(match_id, match.version)


@shared_task(name="games.tasks.send_reminders")
def send_reminders() -> int:
    from django.utils import timezone

    from games.models import Seat

    match_ids = set(
        Seat.objects.filter(to_act=True, remind_at__lte=timezone.now(), match__status=Match.Status.ACTIVE).values_list(
            "match_id", flat=True
        )[:500]
    )
    return sum(actions.do_reminders(match_id) for match_id in sorted(match_ids))


@shared_task(name="games.tasks.end_used_up_vacations")
def end_used_up_vacations() -> int:
    from accounts.models import User

    ended = 0
    for user in User.objects.filter(vacation_started__isnull=False):
        if actions.vacation_seconds_left(user) <= 0:
            actions.end_vacation(user)
            ended += 1
    return ended


@shared_task(name="games.tasks.archive_ended_matches")
def archive_ended_matches() -> int:
    """Every ten minutes (beat): the moves of up to MOVE_ARCHIVE_BATCH ended matches into one row each
    , each in its own transaction (games.actions.do_archive_moves). Not at the end itself:
     the end's emails, the rating and the players' last look read the rows right after it; an hour
     later nothing writes them. Run twice, the second run finds them archived."""
    from django.conf import settings

    return actions.do_archive_batch(settings.MOVE_ARCHIVE_BATCH)
