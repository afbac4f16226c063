"""Every board page loads without a console error (a CSP refusal, a script error), for a seated
player and a spectator, in both languages. The tutorials' browser test (tests/learn/) plays a move of
every kind on each board with the same check."""

from __future__ import annotations

import pytest

from games.engines.registry import SPECS
from tests.browser_helpers import page_as
from tests.helpers import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def console_errors(page) -> list[str]:
    """The page's console errors and uncaught errors from now on, in a list that grows."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_no_board_logs_a_console_error(browser, live_server, make_user, locale):
    for slug, spec in SPECS.items():
        players = [make_user(f"{slug[:8]}-{locale[:2]}-{n}") for n in range(spec.engine.min_players)]
        match = start_match(players[0], players[1:], slug)
        watcher = make_user(f"{slug[:8]}-{locale[:2]}-watcher")
        for user in (players[0], watcher):
            page = page_as(browser, live_server, user, locale=locale)
            errors = console_errors(page)
            page.goto(f"{live_server.url}/matches/{match.pk}/")
            page.wait_for_function("() => !document.querySelector('[hx-trigger=load], .htmx-request')")
            assert errors == [], (slug, user.username, locale)
            page.context.close()
