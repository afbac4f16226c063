"""Two submissions racing for one turn: exactly one wins (PostgreSQL row locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games import actions
from games.engines.registry import get_engine
from games.models import Match, Move
from tests.helpers import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_concurrent_submissions_for_one_turn_apply_once(alice, bob):
    if connection.vendor != "postgresql":
        from tests.conftest import require

        require(False, "row locks need PostgreSQL (select_for_update does nothing on SQLite)")
    match = start_match(alice, [bob])
    engine = get_engine(match.game)
    seat = engine.to_act(match.state)[0]
    user = match.seats.get(number=seat).user
    moves = engine.legal_moves(match.state, seat)
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def submit(index: int) -> None:
        try:
            barrier.wait()
            actions.do_move(match.pk, user, 0, moves[index % len(moves)])
            outcomes.append("applied")
        except actions.StaleVersion:
            outcomes.append("stale")
        except actions.ActionError as error:
            outcomes.append(f"refused: {error}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("applied") == 1, outcomes
    assert outcomes.count("stale") == 7, outcomes
    match.refresh_from_db()
    assert match.version == 1 and Move.objects.filter(match=match).count() == 1


def test_racing_joins_fill_a_seat_once(alice, make_user):
    if connection.vendor != "postgresql":
        from tests.conftest import require

        require(False, "row locks need PostgreSQL")
    joiners = [make_user(f"joiner{i}") for i in range(6)]
    match = actions.create_match(alice, "solitaire-chess", [actions.SeatSpec("me"), actions.SeatSpec("open")])
    barrier = threading.Barrier(len(joiners))
    results: list[bool] = []

    def join(user) -> None:
        try:
            barrier.wait()
            actions.do_join(match.pk, user)
            results.append(True)
        except actions.ActionError:
            results.append(False)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=join, args=(u,)) for u in joiners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.seats.filter(user__isnull=False).count() == 2
