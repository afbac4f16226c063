"""Celery tasks of the tournaments: they take ids, re-read the database, and are safe to run twice
(each action locks the tournament row and does nothing when there is nothing left to do).

The beat sweep runs every minute: it starts (or cancels) the tournaments due to start and moves on
the ones whose current round has ended. It needs no hook in games: a round's end is noticed at most
a minute late, until the domain-events work lets games announce a match's end.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments import actions, championship_actions
from tournaments.models import Championship


@shared_task(name="tournaments.tasks.start_if_due", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5)
def start_if_due(tournament_id: int) -> str:
    return actions.do_start_if_due(tournament_id)


@shared_task(
    name="tournaments.tasks.advance_if_round_over", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5
)
def advance_if_round_over(tournament_id: int) -> str:
    return actions.do_advance_if_round_over(tournament_id)


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
