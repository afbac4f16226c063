"""A player's record is counted as matches finish: the counts kept by the MatchFinished
listener, and those the data migration fills from the finished matches, equal the count over every
finished seat that the profile used to make; the profile reads them in the same queries however many."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from games.models import Match, Seat
from ratings import presenters
from ratings.models import PlayerRecord
from ratings.records import FILL_SQL, outcome_in
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def adjudicate(match: Match, *winners) -> None:
    numbers = [match.seats.get(user=user).number for user in winners]
    actions.do_adjudicate(match.pk, numbers, "test")


def counted_over_every_match(user) -> dict[str, tuple[int, int, int]]:
    """The old computation: every finished seat of the user, its outcome from the match's result."""
    found: dict[str, list[int]] = {}
    for seat in Seat.objects.filter(user=user, match__status=Match.Status.FINISHED).select_related("match"):
        counts = found.setdefault(seat.match.game, [0, 0, 0])
        counts[("won", "lost", "drawn").index(outcome_in(seat.match.result, seat.number))] += 1
    return {game: tuple(counts) for game, counts in found.items()}


def kept(user) -> dict[str, tuple[int, int, int]]:
    _, per_game = presenters.records(user)
    return {game: (r.won, r.lost, r.drawn) for game, r in per_game.items() if r.played}


def play_some(alice, bob, carol) -> None:
    adjudicate(start_match(alice, [bob]), alice)
    adjudicate(start_match(alice, [bob]), alice)
    adjudicate(start_match(bob, [alice]), bob)
    adjudicate(start_match(alice, [carol]))  # no winners: a draw
    adjudicate(start_match(alice, ["random"]), alice)  # a bot's seat has no record
    adjudicate(start_match(alice, [bob], game="doubting-flower-field"), bob)
    actions.do_abort(start_match(alice, [bob]).pk, alice, "test")  # aborted: not a finished match


def test_the_kept_counts_equal_the_count_over_every_finished_match(alice, bob, carol):
    play_some(alice, bob, carol)
    for user in (alice, bob, carol):
        assert kept(user) == counted_over_every_match(user)
    assert kept(alice) == {"solitaire-chess": (3, 1, 1), "doubting-flower-field": (0, 1, 0)}
    total, _ = presenters.records(alice)
    assert (total.won, total.lost, total.drawn, total.played) == (3, 2, 1, 6)


def test_the_migrations_fill_counts_the_same(alice, bob, carol):
    play_some(alice, bob, carol)
    before = {user.pk: kept(user) for user in (alice, bob, carol)}
    PlayerRecord.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute(FILL_SQL)
    assert {user.pk: kept(user) for user in (alice, bob, carol)} == before
    assert PlayerRecord.objects.count() == 5  # alice and bob in two games each, carol in one


def queries_of(client, path: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_the_profile_reads_the_counts_in_the_same_queries_however_many_matches(alice, bob, client):
    adjudicate(start_match(alice, [bob]), alice)
    few = queries_of(client, "/players/alice/")
    for _ in range(4):
        adjudicate(start_match(alice, [bob]), bob)
    many = queries_of(client, "/players/alice/")
    assert len(many) == len(few)
    assert any("ratings_playerrecord" in sql for sql in many)
    assert "5 finished matches" in client.get("/players/alice/").content.decode()
