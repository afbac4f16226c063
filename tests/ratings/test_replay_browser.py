"""The replay page in Debian's chromium: arrow keys step through the moves (static/js/replay.js), with
the strict CSP of every page (no inline script), and the page reads the same without JavaScript."""

from __future__ import annotations

import pytest

from games import actions
from tests.browser_helpers import ARTIFACTS
from tests.helpers import start_match, user_to_act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_arrow_keys_step_through_a_replay(browser, live_server, alice, bob):
    match = start_match(alice, [bob])
    for _ in range(3):
        seat = user_to_act(match)
        engine = actions.engine_of(match)
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
    actions.do_adjudicate(match.pk, [0], "test")
    errors: list[str] = []
    page = browser.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?at=0")
    assert "Position after move 0 of 3" in page.inner_text("main")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**at=1**")
    assert "Position after move 1 of 3" in page.inner_text("main")
    page.keyboard.press("End")
    page.wait_for_url("**at=3**")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**at=2**")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    assert not errors, errors  # a CSP refusal would show here
    # The move numbers are the list's markers, in its padding: a long match's "609." was cut at the left.
    # "1000." is five characters of about half an em, and the marker's gap: 3.2 em at least.
    style = "getComputedStyle(document.querySelector('.replay-history'))"
    assert page.evaluate(f"parseFloat({style}.paddingLeft) >= 3.2 * parseFloat({style}.fontSize)")
    nojs = browser.new_context(java_script_enabled=False).new_page()
    nojs.goto(f"{live_server.url}/matches/{match.pk}/replay/?at=0")
    nojs.click("a[rel=next]")
    assert "Position after move 1 of 3" in nojs.inner_text("main")


def finished_flower_field(alice, bob, moves: int):
    """A Flower Field match of `moves` moves, then adjudicated: a board with its side panel."""
    match = start_match(alice, [bob], "doubting-flower-field", options={"advantage": "0"})
    engine = actions.engine_of(match)
    for _ in range(moves):
        seat = user_to_act(match)
        legal = [m for m in engine.board_moves(match.state, seat.number) if m["type"] in ("order", "hide", "plant")]
        actions.do_move(match.pk, seat.user, match.version, legal[0])
        match.refresh_from_db()
    actions.do_adjudicate(match.pk, [0], "test")
    return match


def test_a_replay_at_1280_gives_the_board_its_width_and_shows_the_move_in_its_list(browser, live_server, alice, bob):
    match = finished_flower_field(alice, bob, 40)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?at=35")
    # The board's side panel is not crushed: as wide as on the board page's own layout (a word a
    # line at about 50 px before).
    side = page.evaluate("Math.max(...[...document.querySelectorAll('.replay-board .panel')].map(p => p.clientWidth))")
    assert side >= 200, side
    shown = page.evaluate(
        """() => {
        const list = document.querySelector('.replay-history');
        const current = list.querySelector('[aria-current]');
        const box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
        return item.top >= box.top && item.bottom <= box.bottom;
    }"""
    )
    assert shown  # the list scrolled to the move on the board
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
