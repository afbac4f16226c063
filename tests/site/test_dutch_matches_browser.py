"""in a browser: the board pages of a whole match of each game, as Dutch-speaking players'
browsers show them after the scripts ran (clocks, the bell, live words), hold no English word.

The match is played through the real action with random legal moves; at points spread over it and at
its end, each seat's browser opens its board. Marker `browser`: Debian's chromium driven by Playwright.
"""

from __future__ import annotations

import random

import pytest

from games import actions
from games.engines.registry import get_engine
from games.models import Match
from tests.browser_helpers import ARTIFACTS, dutch_page
from tests.dutch_words import english_texts, games_with_dutch_words
from tests.helpers import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOKS = 5  # looks at each seat's board along the way, besides the first and the last


def look(pages: dict, match: Match, live_server, where: str) -> None:
    for seat, page in pages.items():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        # Every request the page makes at its load has come back (not "networkidle": the request of
        # the live stream's shared worker never counts as finished).
        page.wait_for_load_state("load")
        page.wait_for_function("() => !document.querySelector('[hx-trigger=load], .htmx-request')")
        assert page.locator("html").get_attribute("lang") == "nl"
        leftover = english_texts(page.content())
        assert leftover == {}, f"English words in seat {seat}'s browser {where}: {leftover}"


@pytest.mark.parametrize("game", games_with_dutch_words())
def test_dutch_browsers_show_no_english_over_a_whole_match(game, browser, live_server, make_user):
    engine = get_engine(game)
    users = [make_user(f"speler{number}") for number in range(engine.min_players)]
    match = start_match(users[0], users[1:], game=game)
    by_seat = {seat.number: seat.user for seat in match.seats.select_related("user")}
    pages = {seat: dutch_page(browser, live_server, user) for seat, user in by_seat.items()}
    rng = random.Random(23)
    look(pages, match, live_server, "at the start")
    # Random play ends most games within this many moves; looks are spread over them.
    every = max(1, min(engine.max_moves(engine.min_players, match.options), 40 * len(users)) // (LOOKS + 1))
    played = 0
    while match.status == Match.Status.ACTIVE:
        seat = engine.to_act(match.state)[0]
        actions.do_move(match.pk, by_seat[seat], match.version, rng.choice(engine.legal_moves(match.state, seat)))
        match.refresh_from_db()
        played += 1
        if played % every == 0 and match.status == Match.Status.ACTIVE:
            look(pages, match, live_server, f"after move {played}")
    look(pages, match, live_server, "at the end")
    ARTIFACTS.mkdir(exist_ok=True)
    pages[0].screenshot(path=str(ARTIFACTS / f"dutch-{game}-end.png"), full_page=True)
