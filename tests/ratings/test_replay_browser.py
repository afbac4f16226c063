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
    nojs = browser.new_context(java_script_enabled=False).new_page()
    nojs.goto(f"{live_server.url}/matches/{match.pk}/replay/?at=0")
    nojs.click("a[rel=next]")
    assert "Position after move 1 of 3" in nojs.inner_text("main")
