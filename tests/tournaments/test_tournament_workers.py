"""A whole Swiss of 8 entrants, 4 of them bots, from sign-up to its final standings, run by two real
Celery workers on Redis and PostgreSQL: the beat sweep (sent here as beat would) starts it, the
workers play the bots' moves and pair each round once its matches have ended (by adjudication, by
a timeout, or the bots' own play), exactly once with two workers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions as games
from games.models import Match
from tests.helpers import time_out
from tests.integration.conftest import wait_for
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Round, Tournament
from tournaments.standings import compute_standings, read_tables, rounds_with_tables
from tournaments.tasks import sweep_tournaments

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = 3


def round_matches(tournament: Tournament, number: int):
    return Match.objects.filter(tournament_table__round__tournament=tournament, tournament_table__round__number=number)


def round_paired(tournament: Tournament, number: int) -> bool:
    return Round.objects.filter(tournament=tournament, number=number).exists()


def round_over(tournament: Tournament, number: int) -> bool:
    return not round_matches(tournament, number).exclude(status__in=["finished", "aborted"]).exists()


def finished(tournament: Tournament) -> bool:
    return Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def end_the_peoples_matches(tournament: Tournament, number: int) -> bool:
    """Matches with a player: the first by a timeout (the deadline sweep's own action), the others
    adjudicated; a bots-only match is left to the workers."""
    matches = Match.objects.filter(
        tournament_table__round__tournament=tournament, tournament_table__round__number=number
    )
    timed_out = False
    for match in matches.filter(seats__user__isnull=False).distinct().order_by("pk"):
        try:
            if not timed_out and match.seats.filter(to_act=True, user__isnull=False).exists():
                time_out(match)
                timed_out = True
            else:
                games.do_adjudicate(match.pk, [0], "test: the first seat wins")
        except games.ActionError:
            pass  # a bot's move ended it first
    return timed_out


def test_a_swiss_of_eight_with_bots_run_by_two_workers(alice, make_user, publish_to_redis, start_worker):
    start_worker("w1")
    start_worker("w2")
    chosen = TournamentSettings(
        name="Worker Swiss",
        game="solitaire-chess",
        format=Tournament.Format.SWISS,
        starts_at=timezone.now() + timedelta(hours=1),
        rounds=ROUNDS,
        min_entrants=8,
        bots_allowed=True,
    )
    tournament = actions.do_create(alice, chosen)
    for n in range(4):
        actions.do_join(tournament.pk, make_user(f"swiss{n}"))
    for _ in range(4):
        actions.do_add_bot(tournament.pk, alice, "random")
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    timeouts = 0
    for number in range(1, ROUNDS + 1):
        sweep_tournaments.delay()
        sweep_tournaments.delay()  # twice, as two beats: still one round
        wait_for(lambda n=number: round_paired(tournament, n), 60, what=f"round {number}")
        timeouts += end_the_peoples_matches(tournament, number)
        wait_for(lambda n=number: round_over(tournament, n), 120, what="the bots' matches")
    sweep_tournaments.delay()
    sweep_tournaments.delay()
    wait_for(lambda: finished(tournament), 60, what="the finish")
    tournament.refresh_from_db()
    assert timeouts >= 1
    assert Round.objects.filter(tournament=tournament).count() == ROUNDS
    assert Match.objects.filter(tournament_table__round__tournament=tournament).count() == 4 * ROUNDS
    rows = compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    assert sum(row.score for row in rows) == 4 * ROUNDS  # every match finished and counted
    assert sorted(tournament.entries.values_list("place", flat=True))[0] == 1
