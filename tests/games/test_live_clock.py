"""The board's clock ticks in the browser (static/js/clock.js), and live matches poll faster."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.browser_helpers import page_as
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


def test_a_live_match_polls_every_two_seconds_a_slow_one_less_often(alice, bob, client_for):
    match = start_match(alice, [bob])
    assert 'hx-trigger="every 5s, poll"' in client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    Match.objects.filter(pk=match.pk).update(turn_seconds=60)
    assert 'hx-trigger="every 2s, poll"' in client_for(alice).get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_clock_counts_down_every_second(browser, live_server, make_user):
    players = [make_user("ann"), make_user("ben")]
    match = start_match(players[0], players[1:])
    page = page_as(browser, live_server, user_to_act(match).user)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    clock = page.locator("time.clock .clock-left")
    page.wait_for_function("() => /^\\d+:\\d\\d:\\d\\d$/.test(document.querySelector('.clock-left').textContent)")
    first = clock.inner_text()
    page.wait_for_function("t => document.querySelector('.clock-left').textContent !== t", arg=first, timeout=3000)
    assert clock.inner_text() < first  # 23:59:58 after 23:59:59: same width, so text order is time order
