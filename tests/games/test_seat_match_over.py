"""Seat.match_over: every way a match ends marks its seats, so the dashboard reads a player's
matches that are not over from the partial index seat_player_going_on instead of all their seats."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from games.actions import SeatSpec
from games.models import Match, Seat
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def over_flags(match: Match) -> list[bool]:
    return list(Seat.objects.filter(match=match).order_by("number").values_list("match_over", flat=True))


def test_a_running_or_open_match_is_not_over(alice, bob):
    running = start_match(alice, [bob])
    waiting = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    assert over_flags(running) == [False, False] and over_flags(waiting) == [False, False]


def test_resigning_ends_the_match_and_marks_its_seats(alice, bob):
    match = start_match(alice, [bob])
    actions.do_resign(match.pk, alice)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert over_flags(match) == [True, True]


def test_aborting_adjudicating_and_cancelling_mark_the_seats(alice, bob, make_user):
    moderator = make_user("mod", is_staff=True)
    aborted, adjudicated = start_match(alice, [bob]), start_match(alice, [bob])
    cancelled = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    actions.do_abort(aborted.pk, moderator, "test")
    actions.do_adjudicate(adjudicated.pk, [0], "test")
    actions.do_cancel(cancelled.pk, alice)
    assert [over_flags(m) for m in (aborted, adjudicated, cancelled)] == [[True, True]] * 3


def test_the_dashboard_reads_the_seats_not_over_and_still_checks_the_status(alice, bob, client_for):
    """A seat whose flag was never set (a row written around the actions) is still left out by the
    match's status: the flag narrows the read, it never decides a list."""
    running, ended = start_match(alice, [bob]), start_match(alice, [bob])
    Match.objects.filter(pk=ended.pk).update(status=Match.Status.FINISHED)
    with CaptureQueriesContext(connection) as captured:
        page = client_for(alice).get("/").content.decode()
    seats_read = [q["sql"] for q in captured.captured_queries if '"games_seat"."match_over"' in q["sql"]]
    assert len(seats_read) == 1 and 'NOT "games_seat"."match_over"' in seats_read[0]
    running_lists = page.split("Your turn (")[1].split("Finished</h2>")[0]
    assert f"/matches/{running.pk}/" in running_lists
    assert f"/matches/{ended.pk}/" not in running_lists


def test_the_migration_marks_the_seats_of_matches_that_ended_before_it(alice, bob):
    ended, running = start_match(alice, [bob]), start_match(alice, [bob])
    Match.objects.filter(pk=ended.pk).update(status=Match.Status.ABORTED)
    Seat.objects.update(match_over=False)
    migration = importlib.import_module("games.migrations.0014_seat_match_over")
    migration.mark_seats_of_ended_matches(apps, None)
    assert over_flags(ended) == [True, True] and over_flags(running) == [False, False]
