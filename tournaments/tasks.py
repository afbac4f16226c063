"""Celery tasks of the tournaments: they take ids, re-read the database, and are safe to run twice
(each action locks the tournament row and does nothing when there is nothing left to do).

The beat sweep runs every minute: it starts (or cancels) the tournaments due to start and moves on
the ones whose current round has ended. It needs no hook in games: a round's end is noticed at most
a minute late, until the domain-events work lets games announce a match's end.
"""

from __future__ import annotations

from collections.abc import Callable

from celery import shared_task
from django.db import OperationalError

from dizzysite import task_failures
from tournaments import actions, championship_actions
from tournaments.models import Championship

# A tournament whose start or next round fails with the same error this many sweeps in a row (a
# minute apart) cannot go on by itself: it is called off and its players told, and /healthz and the
# admin have named the failing task since its third failure (dizzysite/task_failures.py).
STALLED_AFTER = 5


@shared_task(name="tournaments.tasks.start_if_due", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5)
def start_if_due(tournament_id: int) -> str:
    return _unless_stalled("tournaments.tasks.start_if_due", tournament_id, actions.do_start_if_due)


@shared_task(
    name="tournaments.tasks.advance_if_round_over", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5
)
def advance_if_round_over(tournament_id: int) -> str:
    return _unless_stalled("tournaments.tasks.advance_if_round_over", tournament_id, actions.do_advance_if_round_over)


def _unless_stalled(task_name: str, tournament_id: int, action: Callable[[int], str]) -> str:
    try:
        return action(tournament_id)
    except OperationalError:
        raise  # the database: retried, and never a reason to call a tournament off
    except Exception as error:
        if task_failures.previous_failures(task_name, (tournament_id,), error) + 1 >= STALLED_AFTER:
            actions.do_cancel_stalled(tournament_id)
        raise


@shared_task(
    name="tournaments.tasks.start_season_if_due", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5
)
def start_season_if_due(championship_id: int) -> str:
    return championship_actions.do_start_season_if_due(championship_id)


@shared_task(name="tournaments.tasks.sweep_tournaments")
def sweep_tournaments() -> int:
    """Queue a task for every tournament with something to do, and one per championship (which
    starts its next season once the divisions are over); returns how many tournaments were queued."""
    starting = actions.due_to_start()
    advancing = actions.rounds_maybe_over()
    for tournament_id in starting:
        start_if_due.delay(tournament_id)
    for tournament_id in advancing:
        advance_if_round_over.delay(tournament_id)
    for championship_id in Championship.objects.values_list("pk", flat=True):
        start_season_if_due.delay(championship_id)
    return len(starting) + len(advancing)
