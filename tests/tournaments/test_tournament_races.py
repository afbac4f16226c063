"""Two workers at once (PostgreSQL row locks): a tournament starts once, a round is paired once,
and the last place is taken once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import actions as games
from games.models import Match
from tests.conftest import require
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def at_once(count: int, work) -> list:
    """Run `work()` in `count` threads released together; their results (or errors' class names)."""
    require(connection.vendor == "postgresql", "row locks need PostgreSQL (select_for_update does nothing on SQLite)")
    barrier = threading.Barrier(count)
    results: list = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(work())
        except actions.ActionError as error:
            results.append(type(error).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_workers_start_and_pair_a_round_once(alice, make_user):
    players = [make_user(f"racer{n}") for n in range(4)]
    chosen = TournamentSettings(
        name="Race", game="solitaire-chess", format="swiss", starts_at=timezone.now() + timedelta(hours=1), rounds=2
    )
    tournament = actions.do_create(alice, chosen)
    for player in players:
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert sorted(at_once(3, lambda: actions.do_start_if_due(tournament.pk))) == ["", "", "started"]
    assert Match.objects.count() == 2
    for match in Match.objects.all():
        games.do_adjudicate(match.pk, [0], "test")
    assert sorted(at_once(3, lambda: actions.do_advance_if_round_over(tournament.pk))) == ["", "", "paired"]
    assert Round.objects.filter(tournament=tournament).count() == 2 and Match.objects.count() == 4


def test_the_last_place_is_taken_once(alice, make_user):
    joiners = [make_user(f"joiner{n}") for n in range(5)]
    chosen = TournamentSettings(
        name="Small",
        game="solitaire-chess",
        format="swiss",
        starts_at=timezone.now() + timedelta(hours=1),
        max_entrants=2,
        min_entrants=2,
    )
    tournament = actions.do_create(alice, chosen)
    actions.do_join(tournament.pk, alice)
    queue = list(joiners)
    lock = threading.Lock()

    def join():
        with lock:
            user = queue.pop()
        return actions.do_join(tournament.pk, user).pk

    results = at_once(len(joiners), join)
    assert results.count("ActionError") == 4 and tournament.entries.count() == 2
