"""axe-core over every board, in its interactive states, and the keyboard focus after each step.

Marker `browser`: Debian's chromium driven by Playwright; axe-core comes with axe-playwright-python.
"""

from __future__ import annotations

import pytest

from games import actions
from games.engines.registry import GAMES
from tests.browser_helpers import ARTIFACTS, page_as, serious_violations
from tests.helpers import start_match, user_to_act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = {"solitaire-chess": 2, "doubting-flower-field": 2, "dizzy-duo-battle": 3, "lizzy-ghosties": 4}
# A step of a move: a piece selected, a card taken, a cell of a challenge named.
STEP = "#board .move-form a[href*='select='], #board .move-form button[type=submit]"


def focus_is_on_the_board(page) -> bool:
    return page.evaluate("() => !!document.activeElement.closest('#board')")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_board_is_axe_clean_in_its_states_and_keeps_the_focus(game, browser, live_server, make_user):
    users = [make_user(f"player{i}") for i in range(PLAYERS[game])]
    match = start_match(users[0], users[1:], game)
    page = page_as(browser, live_server, user_to_act(match).user, width=390)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    found = {"first view": serious_violations(page)}
    for step in range(1, 4):  # a few steps by keyboard: the focus must stay on the board each time
        control = page.locator(STEP).first
        if not control.count():
            break
        page.evaluate(
            "() => { window.swapped = false; "
            "document.addEventListener('htmx:afterSettle', () => { window.swapped = true; }); }"
        )
        control.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.swapped")
        assert focus_is_on_the_board(page), f"{game}: after step {step} the focus left the board"
        found[f"after step {step}"] = serious_violations(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"axe-{game}.png"), full_page=True)
    assert {state: v for state, v in found.items() if v} == {}
    assert len(found) >= 2, f"{game}: no step of a move was offered by keyboard"


def test_the_tab_title_says_your_turn_once_and_no_more_after_the_move(browser, live_server, make_user):
    """The server's title and clock.js both added "Your turn", and it stayed after the move."""
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, [bob], "solitaire-chess", options={"advantage": "0"})  # alice chooses the order
    page = page_as(browser, live_server, alice)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("#turn-count[data-count]")  # the count's own swap has run its handlers too
    assert page.title().count("Your turn") == 1, page.title()
    page.locator("#board button[name=move][value*='false']").click()  # bob places and moves first
    page.wait_for_selector("#board .turn-banner:not(.mine)")
    page.wait_for_function("() => !document.title.includes('Your turn')", timeout=5000)
    assert f"#{match.pk}" in page.title()


def test_the_settings_links_are_targets_of_24px(browser, live_server, make_user):
    """The account links on the settings page were 19 px tall (WCAG 2.5.8 asks 24)."""
    from axe_playwright_python.sync_playwright import Axe

    page = page_as(browser, live_server, make_user("alice"))
    page.goto(f"{live_server.url}/settings/")
    heights = page.evaluate(
        "() => [...document.querySelectorAll('.link-list a')].map(a => a.getBoundingClientRect().height)"
    )
    assert len(heights) == 7 and min(heights) >= 24, heights  # email, password, 2FA, sessions, privacy, ...
    violations = Axe().run(page, options={"runOnly": ["target-size"]}).response["violations"]
    assert violations == []


def test_a_board_control_that_lost_the_focus_gets_it_back_at_the_next_redraw(browser, live_server, make_user):
    """In Flower Field the focus once fell to the page's body after a move. However a board
    control loses the focus to the body (a browser that blurs a control disabled while its move is
    sent, a redraw that came first), the next redraw of the board brings it back; a click elsewhere
    on the page does not (the player chose to leave)."""
    from moderation.actions import post_chat

    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, [bob], "doubting-flower-field", options={"advantage": "0"})  # alice chooses
    page = page_as(browser, live_server, alice)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("#turn-count[data-count]")  # the header's own swaps are done
    page.wait_for_selector("#inbox-bell[data-count]")
    page.locator("#board .move-form button[name=move]").first.focus()
    page.evaluate("() => document.activeElement.blur()")  # to the body, no click anywhere
    assert page.evaluate("() => document.activeElement === document.body")
    page.evaluate(
        "() => { window.swapped = false; document.addEventListener('htmx:afterSettle', "
        "(e) => { if (e.detail.target.id === 'board') window.swapped = true; }); }"
    )
    post_chat(match.pk, bob, "your move")  # the board changed: the next poll redraws it
    page.evaluate("() => window.htmx.trigger(document.getElementById('board'), 'poll')")
    page.wait_for_function("() => window.swapped")
    assert focus_is_on_the_board(page)
    page.locator("#notes-help").click()  # the player clicks elsewhere: the focus is theirs to move
    assert not focus_is_on_the_board(page)
    page.evaluate("() => { window.swapped = false; }")
    post_chat(match.pk, bob, "still there?")
    page.evaluate("() => window.htmx.trigger(document.getElementById('board'), 'poll')")
    page.wait_for_function("() => window.swapped")
    assert not focus_is_on_the_board(page), "a redraw took the focus back from where the player put it"


@pytest.mark.parametrize("what", ["resign", "abort"])
def test_the_confirmation_pages_of_resign_and_abort_are_axe_clean(what, browser, live_server, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, [bob], "solitaire-chess")
    page = page_as(browser, live_server, alice, width=390)
    page.goto(f"{live_server.url}/matches/{match.pk}/{what}/")
    assert page.locator("form[method=post] button[type=submit]").count() == 1
    assert serious_violations(page) == []


def test_the_jinja2_list_pages_are_axe_clean(browser, live_server, make_user):
    """The dashboard, the inbox, a replay, a move history, a profile with its rating chart and the
    player's finished matches, drawn by Jinja2, at a phone's width, with rows in every
    list they draw and the turn count the dashboard writes itself."""
    alice, bob = make_user("alice"), make_user("bob")
    running = start_match(alice, [bob])
    ended = start_match(alice, [bob])
    actions.do_resign(ended.pk, alice)
    page = page_as(browser, live_server, alice, width=390)
    ARTIFACTS.mkdir(exist_ok=True)
    found = {}
    paths = (
        "/",
        "/inbox/",
        f"/matches/{ended.pk}/replay/",
        f"/matches/{ended.pk}/history/",
        "/players/alice/",
        "/players/alice/matches/",
    )
    wide = {}
    for language in ("en", "nl"):  # Dutch words are longer: nothing may reach past a phone's width
        alice.language = language
        alice.save()
        for path in paths:
            page.goto(f"{live_server.url}{path}")
            found[(language, path)] = serious_violations(page)
            wide[(language, path)] = page.evaluate("document.documentElement.scrollWidth")
            page.screenshot(path=str(ARTIFACTS / f"axe-list-{language}{path.replace('/', '-')}.png"), full_page=True)
    assert wide == dict.fromkeys(wide, 390)
    alice.language = "en"
    alice.save()
    page.goto(f"{live_server.url}/")
    assert page.locator(f"#dashboard a[href='/matches/{running.pk}/']").count() == 1
    assert page.locator("#turn-count").inner_text().startswith("Your turn")
    assert found == dict.fromkeys(wide, []) and len(found) == 2 * len(paths)
    page.goto(f"{live_server.url}/players/alice/")
    assert page.locator("figure.rating-chart svg[role=img]").count() == 1
