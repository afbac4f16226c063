"""Every tutorial finished in a real browser by clicks alone, as a visitor without an account, in
English and Dutch, at 390 and 1280 px: each step's path is the one the page points out (the
tutorial's `look`, then the taught move's button), axe-clean, fitting the width, no console error.
Marker `browser`: Debian's chromium driven by Playwright."""

from __future__ import annotations

import pytest

from games.engines.registry import SPECS
from tests.browser_helpers import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _play_step(page, at: int, step) -> None:
    if step.move is None:
        page.click("#board .tutorial-step button[type=submit]")
    else:
        for code in step.look:
            page.click("#board .pointed-out")
            page.wait_for_selector(f'#board[data-select="{code}"]')
        page.click("#board button.pointed-out")
    page.wait_for_selector(f'#board progress[value="{at + 1}"]')


@pytest.mark.parametrize("slug", list(SPECS))
@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
@pytest.mark.parametrize("width", [390, 1280])
def test_a_visitor_finishes_the_tutorial_by_clicks_alone(browser, live_server, slug, locale, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live_server.url + f"/learn/{slug}/")
    for at, (_lesson, index, step) in enumerate(SPECS[slug].tutorial.steps):
        assert page.get_attribute("#board progress", "value") == str(at)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (slug, at)
        if index == 0:  # each lesson's new position
            assert serious_violations(page) == [], (slug, at, locale)
        _play_step(page, at, step)
    assert page.locator(f"a[href$='game={slug}&bot=random']").count() == 1
    assert serious_violations(page) == [], (slug, "end", locale)
    assert errors == []
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_rules_pages_with_their_pictures_are_axe_clean_and_fit(browser, live_server, locale, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    for slug in SPECS:
        page.goto(live_server.url + f"/games/{slug}/rules/")
        # The minute's picture and one per rule that has one (games/pictures.py), each captioned.
        pictures = 1 + len(SPECS[slug].tutorial.pictures)
        assert page.locator("figure.rules-picture > .rules-board").count() == pictures
        assert page.locator("figure.rules-picture > figcaption").count() == pictures
        assert page.evaluate("new Set([...document.querySelectorAll('[id]')].map(e => e.id)).size") == (
            page.locator("[id]").count()
        ), slug
        assert page.evaluate("document.documentElement.scrollWidth") <= width, slug
        assert serious_violations(page) == [], (slug, locale)
    context.close()
