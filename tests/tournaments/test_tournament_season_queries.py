"""A championship season starts all its divisions' matches in one task, in a number of queries that
does not grow with the divisions or their matches; the matches start as a lobby's do."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Seat
from notifications.models import Kind, Notification
from push.models import PushDelivery, PushSubscription
from tournaments import championship_actions as actions
from tournaments.models import Championship, Round, Table, TableSeat, Tournament

pytestmark = pytest.mark.django_db


def season_start_queries(make_user, divisions: int, prefix: str, clock: str = "daily") -> int:
    admin = make_user(f"{prefix}admin", is_staff=True)
    championship = Championship.objects.create(
        game="solitaire-chess", time_preset=clock, division_size=4, promote=1, organiser=admin
    )
    players = [make_user(f"{prefix}{n}") for n in range(4 * divisions)]
    for player in players:
        actions.do_join_championship(championship.pk, player)
    PushSubscription.objects.bulk_create(  # every player a device: pushes in both sizes, whoever moves first
        PushSubscription(user=p, endpoint=f"https://push.example/{p.username}", p256dh="k", auth="a") for p in players
    )
    with CaptureQueriesContext(connection) as queries:
        assert actions.do_start_season_if_due(championship.pk) == "started"
    season = championship.seasons.get()
    assert season.divisions.count() == divisions
    assert Match.objects.filter(tournament_table__round__tournament__season=season).count() == 6 * divisions
    return len(queries)


def test_a_season_starts_in_the_same_number_of_queries_for_two_and_eight_divisions(make_user):
    small = season_start_queries(make_user, 2, "s")
    large = season_start_queries(make_user, 8, "l", "relaxed")
    assert small == large, (small, large)
    assert large < 40  # a few per table, not ~22 per match as one at a time


def test_the_season_s_matches_are_started_like_a_lobby_s(make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        season_start_queries(make_user, 2, "p")
    assert callbacks  # the emails, pushes and bot moves go after the commit
    division = Tournament.objects.filter(season__isnull=False).order_by("division").first()
    assert division.current_round == 3 and Round.objects.filter(tournament=division).count() == 3
    tables = Table.objects.filter(round__tournament=division)
    assert tables.count() == 6 and not tables.filter(match__isnull=True).exists()  # four players: no bye
    assert TableSeat.objects.filter(table__round__tournament=division).count() == 12
    for match in Match.objects.filter(tournament_table__round__tournament=division):
        assert match.status == Match.Status.ACTIVE and match.version == 0 and match.revision == 1
        assert not match.abortable and match.state is not None and match.seed
        seats = list(match.seats.all())
        to_act = [seat for seat in seats if seat.to_act]
        assert len(to_act) == 1 and to_act[0].deadline is not None and match.deadline == to_act[0].deadline
        assert all(seat.accepted and seat.reserve_left == match.reserve_periods for seat in seats)
        kinds = {n.recipient_id: n.kind for n in Notification.objects.filter(match=match)}
        assert kinds == {seat.user_id: Kind.TOURNAMENT_ROUND for seat in seats}  # "a new round, and your match"
    assert Seat.objects.filter(match__tournament_table__round__tournament=division).count() == 12
    told = Notification.objects.filter(tournament=division, kind=Kind.TOURNAMENT_STARTED)
    assert told.count() == 4
    # every player has a device: a push for each new match and the season's start
    rounds = PushDelivery.objects.filter(notification__match__tournament_table__round__tournament=division)
    assert set(rounds.values_list("notification__kind", flat=True)) == {Kind.TOURNAMENT_ROUND}
    assert rounds.count() == 12 and PushDelivery.objects.filter(notification__tournament=division).count() == 4
