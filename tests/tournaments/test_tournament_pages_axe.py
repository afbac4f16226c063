"""axe-core over the tournament pages (list, a running round robin with its crosstable, the
organiser's form, a championship), and the join form used with the keyboard alone.

Marker `browser`: Debian's chromium driven by Playwright; axe-core comes with axe-playwright-python."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions as games
from tests.browser_helpers import page_as, serious_violations
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Championship, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_tournament_pages_are_axe_clean_and_joining_works_by_keyboard(browser, live_server, alice, bob, carol):
    chosen = {"game": "solitaire-chess", "format": Tournament.Format.ROUND_ROBIN, "min_entrants": 2}
    running = actions.do_create(
        alice, TournamentSettings(name="Cup", starts_at=timezone.now() + timedelta(hours=1), **chosen)
    )
    for player in (alice, bob, carol):
        actions.do_join(running.pk, player)
    Tournament.objects.filter(pk=running.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.do_start_if_due(running.pk)
    upcoming = actions.do_create(
        alice, TournamentSettings(name="Open", starts_at=timezone.now() + timedelta(days=1), **chosen)
    )
    championship = Championship.objects.create(game="solitaire-chess", organiser=alice)
    page = page_as(browser, live_server, bob)
    for path in (
        "/tournaments/",
        f"/tournaments/{running.pk}/",
        f"/tournaments/{upcoming.pk}/",
        "/tournaments/new/",
        f"/championships/{championship.pk}/",
    ):
        page.goto(live_server.url + path)
        assert serious_violations(page) == [], path
    page.goto(live_server.url + f"/tournaments/{upcoming.pk}/")
    page.get_by_role("button", name="Enter this tournament").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.get_by_role("button", name="Leave this tournament").wait_for()
    assert upcoming.entries.filter(user=bob).exists()


def test_a_player_joins_from_the_list_follows_the_pairing_and_sees_the_standings_move(browser, live_server, alice, bob):
    """The match itself is ended by a moderator's adjudication, not by moves played in the browser."""
    chosen = {"game": "solitaire-chess", "format": Tournament.Format.SWISS, "min_entrants": 2, "rounds": 1}
    tournament = actions.do_create(
        alice, TournamentSettings(name="Browser Swiss", starts_at=timezone.now() + timedelta(hours=1), **chosen)
    )
    actions.do_join(tournament.pk, alice)
    page = page_as(browser, live_server, bob)
    page.goto(live_server.url + "/tournaments/")
    page.get_by_role("link", name="Browser Swiss").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Enter this tournament").click()
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert actions.do_start_if_due(tournament.pk) == "started"
    page.reload()
    match = tournament.round_set.get().tables.get().match
    page.get_by_role("link", name=f"Match #{match.pk}").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    bobs_seat = match.seats.get(user=bob).number
    games.do_adjudicate(match.pk, [bobs_seat], "test: bob wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    page.goto(live_server.url + f"/tournaments/{tournament.pk}/")
    first_row = page.locator("table.standings tbody tr").first
    assert "bob" in first_row.inner_text() and first_row.locator("td").nth(1).inner_text() == "1"
