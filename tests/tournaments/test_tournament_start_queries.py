"""A tournament's start reads every entrant's rating in one query, whatever the number of
entrants, and seeds them by those ratings (players' people pool, bots' own)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings.models import Pool, Rating
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GAME = "solitaire-chess"


def start_with(make_user, organiser, entrants: int) -> tuple[Tournament, list[str]]:
    """A Swiss of `entrants` (one a bot), each player rated by their number; returns the tournament and
    the SQL of its start."""
    chosen = TournamentSettings(
        name=f"Swiss of {entrants}",
        game=GAME,
        format=Tournament.Format.SWISS,
        starts_at=timezone.now() + timedelta(days=1),
        rounds=2,
        min_entrants=2,
        max_entrants=64,
        bots_allowed=True,
    )
    tournament = actions.do_create(organiser, chosen)
    for n in range(entrants - 1):
        player = make_user(f"p{entrants}x{n}")
        Rating.objects.create(game=GAME, pool=Pool.PEOPLE, user=player, mu=20 + n)
        actions.do_join(tournament.pk, player)
    actions.do_add_bot(tournament.pk, organiser, "random")
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        assert actions.do_start_if_due(tournament.pk) == "started"
    return tournament, [q["sql"] for q in queries.captured_queries]


def rating_reads(sql: list[str]) -> int:
    return sum('FROM "ratings_rating"' in statement for statement in sql)


def test_the_start_reads_all_ratings_in_one_query(make_user, alice):
    Rating.objects.get_or_create(game=GAME, pool=Pool.BOTS, user=None, bot_level="random", defaults={"mu": 40})
    Rating.objects.filter(game=GAME, pool=Pool.BOTS, bot_level="random").update(mu=40)
    small, small_sql = start_with(make_user, alice, 4)
    big, big_sql = start_with(make_user, alice, 12)
    assert rating_reads(small_sql) == rating_reads(big_sql) == 1
    for tournament, entrants in ((small, 4), (big, 12)):
        seeded = list(tournament.entries.order_by("seed"))
        assert seeded[0].user_id is None  # the bot, rated highest
        assert [e.rating for e in seeded] == sorted((e.rating for e in seeded), reverse=True)
        assert len({e.rating for e in seeded}) == entrants  # each one's own rating, none defaulted
