"""in a browser: a Dutch-speaking browser plays Solitaire Chess moves and reads no English on
the board; the language switch (a plain form) turns the site to English and the account keeps it.

Marker `browser`: Debian's chromium driven by Playwright (see tests/site/test_browser.py)."""

from __future__ import annotations

import re

import pytest

from tests.browser_helpers import ARTIFACTS, dutch_page
from tests.dutch_words import ENGLISH_WORDS
from tests.helpers import start_match, user_to_act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def english_words_on(page) -> list[str]:
    text = page.locator("body").inner_text()
    return sorted({word.lower() for word in re.findall(r"[A-Za-z']+", text)} & ENGLISH_WORDS)


def take_a_step(page) -> None:
    """One step of the player's move: the order choice, else a highlighted square; waits for the swap."""
    page.evaluate(
        "() => { window.swapped = false; "
        "document.addEventListener('htmx:afterSettle', (e) => { "
        "if (e.detail.requestConfig && e.detail.requestConfig.verb === 'post') window.swapped = true; }); }"
    )
    control = page.locator("#board .choice button:enabled, #board button.target-button:enabled").first
    control.click()
    page.wait_for_function("() => window.swapped")


def test_a_dutch_browser_plays_solitaire_chess_in_dutch_and_switches_to_english(browser, live_server, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, [bob], "solitaire-chess")
    player = user_to_act(match).user
    page = dutch_page(browser, live_server, player)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert "Jij bent aan de beurt." in page.locator(".turn-banner").inner_text()
    assert english_words_on(page) == []
    moves = 0
    while "Jij bent aan de beurt." in page.locator(".turn-banner").inner_text() and moves < 4:
        take_a_step(page)
        moves += 1
    history = page.locator(".history-list").inner_text()
    assert "koos om als" in history or "zette een stuk op" in history, history
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "i18n-dutch-board.png"), full_page=True)
    assert english_words_on(page) == [], "English words on the Dutch board"

    # The switch: a plain form, followed without JavaScript; the account keeps the choice.
    page.locator("form.language-switch button[value=en]").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.url.endswith(f"/matches/{match.pk}/")
    assert "Move history" in page.locator("body").inner_text()
    player.refresh_from_db()
    assert player.language == "en"
