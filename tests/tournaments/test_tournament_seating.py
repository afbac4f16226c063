"""Ruling TRN-9: a tables tournament seats every count of entrants from the game's fewest players on,
before and after withdrawals, so that neither its start nor a later round can stall. A table keeps
to the organiser's size when the count allows it, else a table grows, never past the game's most
players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engines.registry import SPECS, get_engine
from games.models import Match
from tournaments import actions, pairing
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament

MULTI_SEAT = [slug for slug in SPECS if get_engine(slug).max_players > 2]


def test_the_multi_seat_games_are_found():
    assert sorted(MULTI_SEAT) == ["dizzy-duo-battle", "lizzy-ghosties"]


def fits_organisers_size(count: int, fewest: int, size: int) -> bool:
    """Whether `count` splits into tables of `fewest` to `size` players at all."""
    tables = -(-count // size)
    return count // tables >= fewest


@pytest.mark.parametrize("game", MULTI_SEAT)
def test_every_count_to_forty_is_seated_at_every_table_size(game):
    engine = get_engine(game)
    fewest, most = engine.min_players, engine.max_players
    for size in range(fewest, most + 1):
        for count in range(fewest, 41):  # every count an organiser's entrants, or what withdrawals leave
            ranked = list(range(count))
            round_ = pairing.tables_round(ranked, {}, fewest, most, size)
            seated = [player for table in round_.tables for player in table]
            assert sorted(seated) == ranked, (game, size, count)
            sizes = [len(table) for table in round_.tables]
            assert all(fewest <= n <= most for n in sizes), (game, size, count, sizes)
            assert max(sizes) - min(sizes) <= 1, (game, size, count, sizes)
            if fits_organisers_size(count, fewest, size):
                assert max(sizes) <= size, (game, size, count, sizes)
            else:  # a table grows by as little as it can
                assert max(sizes) <= size + fewest - 1, (game, size, count, sizes)


def ghost_tables(size: int, *, fewest: int = 3) -> TournamentSettings:
    return TournamentSettings(
        name="Ghost tables",
        game="lizzy-ghosties",
        format=Tournament.Format.TABLES,
        starts_at=timezone.now() + timedelta(days=1),
        rounds=2,
        table_size=size,
        min_entrants=fewest,
    )


def tables_tournament(organiser, size: int) -> Tournament:
    return actions.do_create(organiser, ghost_tables(size))


def start(tournament: Tournament) -> str:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    return actions.do_start_if_due(tournament.pk)


def round_sizes(tournament: Tournament, number: int) -> list[int]:
    matches = Match.objects.filter(
        tournament_table__round__tournament=tournament, tournament_table__round__number=number
    )
    return sorted(match.seats.count() for match in matches)


@pytest.mark.django_db
@pytest.mark.parametrize(("size", "entrants", "tables"), [(4, 5, [5]), (3, 7, [3, 4])])
def test_a_count_the_organisers_size_cannot_seat_starts_with_a_bigger_table(make_user, size, entrants, tables):
    tournament = tables_tournament(make_user("organiser"), size)
    for n in range(entrants):
        actions.do_join(tournament.pk, make_user(f"p{n}"))
    assert start(tournament) == "started"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert round_sizes(tournament, 1) == tables


@pytest.mark.django_db
def test_a_withdrawal_that_leaves_five_at_tables_of_three_still_pairs_the_next_round(make_user):
    from games import actions as games

    tournament = tables_tournament(make_user("organiser"), 3)
    players = [make_user(f"p{n}") for n in range(6)]
    for player in players:
        actions.do_join(tournament.pk, player)
    assert start(tournament) == "started"
    assert round_sizes(tournament, 1) == [3, 3]
    actions.do_leave(tournament.pk, players[0])  # after the start: withdrawn (TRN-8), paired no more
    for match in Match.objects.filter(tournament_table__round__tournament=tournament, status=Match.Status.ACTIVE):
        games.do_adjudicate(match.pk, [0], "test: the first seat's side wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    assert round_sizes(tournament, 2) == [5]


@pytest.mark.django_db
def test_a_tournament_whose_start_keeps_failing_is_called_off_and_its_players_told(make_user, monkeypatch, client):
    from django.core.cache import cache

    from dizzysite.heartbeat import cache_key
    from notifications.models import Kind, Notification
    from tournaments.tasks import STALLED_AFTER, start_if_due

    organiser = make_user("organiser")
    tournament = tables_tournament(organiser, 4)
    players = [make_user(f"p{n}") for n in range(4)]
    for player in players:
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))

    def broken(*args, **kwargs):
        raise RuntimeError("a pairing that cannot be made")

    monkeypatch.setattr(actions, "pair_round", broken)
    for role in ("worker", "beat"):
        cache.set(cache_key(role), timezone.now().timestamp())
    for _ in range(3):
        assert start_if_due.apply(args=(tournament.pk,), throw=False).failed()
    problems = client.get("/healthz").json()["problems"]
    assert problems == [
        f"tournaments.tasks.start_if_due({tournament.pk}) has failed 3 times in a row: "
        "RuntimeError: a pairing that cannot be made"
    ]
    for _ in range(STALLED_AFTER - 4):
        assert start_if_due.apply(args=(tournament.pk,), throw=False).failed()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN  # still trying
    assert start_if_due.apply(args=(tournament.pk,), throw=False).failed()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.end_reason.startswith("It could not go on")
    told = Notification.objects.filter(tournament=tournament, kind=Kind.TOURNAMENT_OVER)
    assert set(told.values_list("recipient__username", flat=True)) == {"organiser", "p0", "p1", "p2", "p3"}


@pytest.mark.django_db
def test_the_fewest_entrants_refused_names_the_games_fewest_players(make_user):
    with pytest.raises(actions.ActionError) as refused:
        actions.do_create(make_user("organiser"), ghost_tables(3, fewest=2))
    assert str(refused.value) == "The fewest entrants must be at least 3 and at most the most entrants."
