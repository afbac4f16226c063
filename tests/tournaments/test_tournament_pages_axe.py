"""axe-core over the tournament pages (list, a running round robin with its crosstable, a knockout
with its bracket, the organiser's form and page, a championship), and the join form used with the keyboard alone.

Marker `browser`: Debian's chromium driven by Playwright; axe-core comes with axe-playwright-python."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions as games
from games.models import Move
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
    knockout = actions.do_create(
        alice,
        TournamentSettings(
            name="Knockout", starts_at=timezone.now() + timedelta(hours=1), **{**chosen, "format": "knockout"}
        ),
    )
    for player in (alice, bob, carol):
        actions.do_join(knockout.pk, player)
    Tournament.objects.filter(pk=knockout.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.do_start_if_due(knockout.pk)
    championship = Championship.objects.create(game="solitaire-chess", organiser=alice)
    page = page_as(browser, live_server, bob)
    for path in (
        "/tournaments/",
        f"/tournaments/{running.pk}/",
        f"/tournaments/{upcoming.pk}/",
        f"/tournaments/{knockout.pk}/",  # its bracket drawn
        "/tournaments/new/",
        f"/championships/{championship.pk}/",
    ):
        page.goto(live_server.url + path)
        assert serious_violations(page) == [], path
        if path == f"/tournaments/{knockout.pk}/":
            assert page.locator(".bracket-round").count() == 2  # the semi-finals and the final
    organiser = page_as(browser, live_server, alice)
    for path in ("/tournaments/organised/", f"/tournaments/{upcoming.pk}/edit/", f"/tournaments/{upcoming.pk}/"):
        organiser.goto(live_server.url + path)
        assert serious_violations(organiser) == [], path
    page.goto(live_server.url + f"/tournaments/{upcoming.pk}/")
    page.get_by_role("button", name="Enter this tournament").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.get_by_role("button", name="Leave this tournament").wait_for()
    assert upcoming.entries.filter(user=bob).exists()


def test_a_player_joins_from_the_list_follows_the_pairing_plays_and_sees_the_standings_move(
    browser, live_server, alice, bob
):
    """Bob enters from the list, follows his pairing to the board and plays his first move there (a
    real click on the board's own control); alice then resigns, and the standings show bob first."""
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
    bobs_seat = match.seats.get(user=bob).number
    engine = games.engine_of(match)
    while bobs_seat not in engine.to_act(match.state):  # alice's opening decisions, if hers come first
        alices_seat = 1 - bobs_seat
        move = engine.legal_moves(match.state, alices_seat)[0]
        match = games.do_move(match.pk, alice, match.version, move)
    page.get_by_role("link", name=f"Match #{match.pk}").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    page.locator('button[name="move"]').first.click()  # bob's first decision, as offered on his board
    played = Move.objects.filter(match=match, seat=bobs_seat, by_bot=False)
    for _ in range(100):  # the board posts the move (by htmx or a plain form)
        if played.exists():
            break
        time.sleep(0.1)
    assert played.exists()
    games.do_resign(match.pk, alice)
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    page.goto(live_server.url + f"/tournaments/{tournament.pk}/")
    first_row = page.locator("table.standings tbody tr").first
    assert "bob" in first_row.inner_text() and first_row.locator("td").nth(1).inner_text() == "1"


def test_a_tournament_page_fits_a_phone_with_its_standings(browser, live_server, alice, make_user):
    chosen = TournamentSettings(
        name="Ghost night",
        game="lizzy-ghosties",
        format=Tournament.Format.TABLES,
        starts_at=timezone.now() + timedelta(days=2),
        table_size=4,
        min_entrants=3,
    )
    tournament = actions.do_create(alice, chosen)
    for n in range(4):
        actions.do_join(tournament.pk, make_user(f"entrant{n}"))
    for width in (390, 1280):
        page = page_as(browser, live_server, alice, width=width)
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page) == []
        page.context.close()


def test_the_tournament_list_fits_a_phone_in_dutch(browser, live_server, alice, bob, carol):
    """Dutch words are longer: the running list's five columns were wider than a phone, and moved the
    whole page sideways; a table wider than the page scrolls inside its own box. The lists' and the
    tournament's tables are ruled (they were the browser's bare tables)."""
    chosen = TournamentSettings(
        name="Sunday Swiss",
        game="solitaire-chess",
        format=Tournament.Format.SWISS,
        starts_at=timezone.now() + timedelta(days=1),
        rounds=2,
        min_entrants=2,
    )
    tournament = actions.do_create(bob, chosen)
    for player in (alice, bob, carol):
        actions.do_join(tournament.pk, player)
    assert actions.do_organiser_start(tournament.pk, bob) == "started"
    for path in ("/tournaments/", "/tournaments/organised/"):
        page = page_as(browser, live_server, bob if "organised" in path else alice, width=390, locale="nl-NL")
        page.goto(live_server.url + path)
        assert "Sunday Swiss" in page.inner_text("main")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        assert serious_violations(page) == []
        # Drawn as the tournament page's tables are (static/css/tournaments.css): ruled heads.
        head = "getComputedStyle(document.querySelector('table.tournaments thead th')).borderBottomWidth"
        assert page.evaluate(head) == "2px", path
        page.context.close()
    page = page_as(browser, live_server, alice, width=1280)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    assert page.evaluate("getComputedStyle(document.querySelector('table.standings td')).borderBottomStyle") == "solid"
    assert page.evaluate("getComputedStyle(document.querySelector('.tournament-facts')).display") == "grid"
    page.context.close()
