"""Rounds paired on a fixed schedule: round n at the start plus (n - 1) times the hours
between rounds, not before, and whether or not the last round's matches have ended; a knockout
waits for its winners; the tournament finishes once every match has ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions as games
from games.models import Match
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db


def started(organiser, players, **chosen) -> Tournament:
    settings = {
        "name": "Weekly Swiss",
        "game": "solitaire-chess",
        "format": Tournament.Format.SWISS,
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 3,
        "round_hours": 24,
        "min_entrants": 2,
        **chosen,
    }
    tournament = actions.do_create(organiser, TournamentSettings(**settings))
    for player in players:
        actions.do_join(tournament.pk, player)
    started_since(tournament, timedelta(seconds=1))
    assert actions.do_start_if_due(tournament.pk) == "started"
    tournament.refresh_from_db()
    return tournament


def started_since(tournament: Tournament, ago: timedelta) -> None:
    """The clock moves on: the tournament started `ago`."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - ago)


def round_matches(tournament: Tournament, number: int) -> list[Match]:
    return list(
        Match.objects.filter(tournament_table__round__tournament=tournament, tournament_table__round__number=number)
    )


@pytest.fixture
def players(make_user):
    return [make_user(f"player{n}") for n in range(4)]


def test_each_round_at_its_time_even_with_matches_still_played(alice, players):
    tournament = started(alice, players)
    for match in round_matches(tournament, 1):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    assert actions.do_advance_if_round_over(tournament.pk) == ""  # round 1 is over, but round 2 is due tomorrow
    started_since(tournament, timedelta(hours=24, seconds=1))
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    second = round_matches(tournament, 2)
    assert {m.status for m in second} == {Match.Status.ACTIVE}
    assert actions.do_advance_if_round_over(tournament.pk) == ""  # round 3 is due in a day
    started_since(tournament, timedelta(hours=48, seconds=1))
    assert tournament.pk in actions.rounds_maybe_over()  # the sweep looks at it, matches running or not
    sweep_tournaments()  # eager here: pairs round 3 with round 2 still being played
    tournament.refresh_from_db()
    assert tournament.current_round == 3
    for match in second:
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
    third = round_matches(tournament, 3)
    assert len(third) == 2
    opponents = {frozenset(m.seats.values_list("user_id", flat=True)) for m in round_matches(tournament, 1) + second}
    assert not any(frozenset(m.seats.values_list("user_id", flat=True)) in opponents for m in third)  # no rematch
    for match in third:
        games.do_adjudicate(match.pk, [0], "test")
    assert actions.do_advance_if_round_over(tournament.pk) == ""  # the last round: waits for every match
    for match in second:
        games.do_adjudicate(match.pk, [], "test: a draw")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and not tournament.entries.filter(place=None).exists()


def test_a_knockout_on_schedule_waits_for_its_winners(alice, players):
    tournament = started(alice, players, format=Tournament.Format.KNOCKOUT)
    started_since(tournament, timedelta(hours=25))
    assert actions.do_advance_if_round_over(tournament.pk) == ""  # the semi-finals are being played
    first, second = round_matches(tournament, 1)
    games.do_adjudicate(first.pk, [0], "test")
    assert actions.do_advance_if_round_over(tournament.pk) == ""
    games.do_adjudicate(second.pk, [1], "test")
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"


def test_the_schedule_is_chosen_on_the_form_and_shown(alice, players, client_for, client):
    start = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Daily rounds",
        "game": "solitaire-chess",
        "format": "swiss",
        "time_preset": "daily",
        "starts_at": start,
        "rounds": 4,
        "table_size": 4,
        "min_entrants": 2,
        "max_entrants": 16,
        "round_hours": 48,
    }
    assert client_for(alice).post("/tournaments/new/", data).status_code == 302
    assert Tournament.objects.get(name="Daily rounds").round_hours == 48
    assert client_for(alice).post("/tournaments/new/", {**data, "round_hours": 0}).status_code == 400
    tournament = started(alice, players, round_hours=48)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    due = timezone.localtime(tournament.round_due(2)).isoformat()
    assert "One round every 48 hours" in page and "round 2 from" in page and f'datetime="{due}"' in page
    client.cookies["django_language"] = "nl"
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Elke 48 uur een ronde" in page and "ronde 2 vanaf" in page
