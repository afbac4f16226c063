"""Two browsers on one match, served by a real uvicorn (the live streams are async views): a move in one
appears in the other within a second, fetched because the stream said so and not by a timer, and
the waiting player's focus stays on the board."""

from __future__ import annotations

import time

import pytest

from games.models import Seat
from tests.asgi_server import session_cookie, start_server, stop_server
from tests.browser_helpers import take_one_action
from tests.helpers import start_match, user_to_act

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(browser):
    """The shared browser; then the connections this test's queries opened inside Playwright's loop
    (connections of their own) are closed, or the test database could not be dropped at the end."""
    from django.db import connections

    yield browser
    connections.close_all()


@pytest.fixture
def asgi_site():
    """uvicorn without Redis (make run's way: the in-process broadcaster), polling every second,
    so that an interval poll would certainly show up in the test's window if it were not skipped."""
    process, port, folder = start_server({"DIZZY_POLL_SECONDS": "1"}, heartbeat_s=15)
    yield f"http://127.0.0.1:{port}"
    stop_server(process, folder)


def page_for(browser, base: str, user):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": session_cookie(user), "url": base}])
    return context.new_page()


def test_a_move_reaches_the_other_browser_by_the_stream(browser, asgi_site, alice, bob):
    match = start_match(alice, [bob])
    mover_user = user_to_act(match).user
    waiter_user = bob if mover_user == alice else alice
    mover, waiter = page_for(browser, asgi_site, mover_user), page_for(browser, asgi_site, waiter_user)
    url = f"{asgi_site}/matches/{match.pk}/"
    for page in (mover, waiter):
        page.goto(url)
        page.wait_for_function("() => document.documentElement.dataset.live === 'open'", timeout=5000)

    board_requests: list[dict] = []
    waiter.on(
        "request",
        lambda r: board_requests.append(r.headers) if f"/matches/{match.pk}/?since=" in r.url else None,
    )
    waiter.focus("#board")  # the waiting player is on the board (keyboard or screen reader)
    time.sleep(2.5)  # two interval polls' time: none goes out while the stream is open
    assert board_requests == []

    revision = waiter.locator("#board").get_attribute("data-revision")
    assert waiter.locator("#turn-count").get_attribute("data-count") == "0"  # not the waiter's turn yet
    assert take_one_action(mover)
    moved = time.monotonic()
    waiter.wait_for_function("r => document.getElementById('board').dataset.revision !== r", arg=revision, timeout=1000)
    assert time.monotonic() - moved < 1.0
    match.refresh_from_db()
    assert waiter.locator("#board").get_attribute("data-revision") == str(match.revision)
    assert board_requests and all(h.get("x-dizzy-live") == "1" for h in board_requests), board_requests
    assert waiter.evaluate("document.activeElement && document.activeElement.id") == "board"
    # The header's turn count follows the user's own stream ("turns"), without its 30 s poll: the
    # mover plays on until the turn passes to the waiter (a Solitaire Chess turn may take several moves).
    for _ in range(20):
        if Seat.objects.filter(user=waiter_user, to_act=True).exists():
            break
        version = mover.locator("input[name=version]").input_value()
        assert take_one_action(mover)
        mover.wait_for_function("v => document.querySelector('input[name=version]').value != v", arg=version)
    assert Seat.objects.filter(user=waiter_user, to_act=True).exists()
    waiter.wait_for_function("() => document.getElementById('turn-count').dataset.count === '1'", timeout=2000)


def test_without_a_stream_the_board_polls_as_before(browser, alice, bob):
    """Every stream refused (a cap of 0: as a user over the cap, or a proxy that will not pass them):
    the interval poll carries the move, as it did before the live events."""
    process, port, folder = start_server({"DIZZY_POLL_SECONDS": "1", "LIVE_MAX_STREAMS_PER_USER": "0"}, 15)
    base = f"http://127.0.0.1:{port}"
    try:
        match = start_match(alice, [bob])
        mover_user = user_to_act(match).user
        waiter_user = bob if mover_user == alice else alice
        mover, waiter = page_for(browser, base, mover_user), page_for(browser, base, waiter_user)
        for page in (mover, waiter):
            page.goto(f"{base}/matches/{match.pk}/")
        waiter.wait_for_function("() => document.documentElement.dataset.live === 'down'", timeout=5000)
        # The stream is opened in the browser's shared worker, whose requests the page cannot see:
        # refused, it never opens (the page would say "open" at once, as in the tests above).
        time.sleep(2)
        assert waiter.evaluate("document.documentElement.dataset.live") == "down"
        revision = waiter.locator("#board").get_attribute("data-revision")
        assert take_one_action(mover)
        waiter.wait_for_function(
            "r => document.getElementById('board').dataset.revision !== r", arg=revision, timeout=3000
        )
    finally:
        stop_server(process, folder)


def test_the_dashboard_shows_a_new_open_seat_without_a_reload(browser, alice, bob, settings):
    """The lobby changed in another process (here: this test's, through Redis): the dashboard of a
    signed-in player draws the new open match by itself."""
    import uuid

    from dizzysite.netutil import port_open
    from games import actions
    from games.actions import SeatSpec
    from live import broadcast
    from tests.conftest import require
    from tests.integration.conftest import REDIS_URL

    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    settings.LIVE_REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"dizzytest-live-{uuid.uuid4().hex[:8]}:"
    broadcast.reset_broadcaster()
    env = {"LIVE_REDIS_URL": REDIS_URL, "LIVE_CHANNEL_PREFIX": settings.LIVE_CHANNEL_PREFIX}
    process, port, folder = start_server(env, 15)
    try:
        base = f"http://127.0.0.1:{port}"
        page = page_for(browser, base, alice)
        page.goto(f"{base}/")
        page.wait_for_function("() => document.documentElement.dataset.live === 'open'", timeout=5000)
        assert page.locator("#dashboard").count() == 1
        match = actions.create_match(bob, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
        page.wait_for_selector(f"#dashboard a[href='/matches/{match.pk}/']", timeout=5000)
    finally:
        stop_server(process, folder)
        broadcast.reset_broadcaster()


def test_eight_tabs_share_one_stream_and_a_move_in_the_last_goes_through(browser, alice, bob):
    """A browser keeps 6 HTTP/1.1 connections to a site: with a stream per tab (or two) the third
    board tab froze. Here the server lets a user hold 2 streams, so 8 tabs each with a live board
    can only all be "open" through the one stream their shared worker holds; then a move in the
    eighth tab reaches the other player's browser by that stream."""
    process, port, folder = start_server({"DIZZY_POLL_SECONDS": "30", "LIVE_MAX_STREAMS_PER_USER": "2"}, 15)
    base = f"http://127.0.0.1:{port}"
    try:
        matches = [start_match(alice, [bob], options={"advantage": "0"}) for _ in range(8)]
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.add_cookies([{"name": "sessionid", "value": session_cookie(alice), "url": base}])
        tabs = []
        for match in matches:
            tab = context.new_page()
            tab.goto(f"{base}/matches/{match.pk}/")
            tabs.append(tab)
        for tab in tabs:
            tab.wait_for_function("() => document.documentElement.dataset.live === 'open'", timeout=8000)
        other = page_for(browser, base, bob)
        other.goto(f"{base}/matches/{matches[-1].pk}/")
        other.wait_for_function("() => document.documentElement.dataset.live === 'open'", timeout=8000)
        revision = other.locator("#board").get_attribute("data-revision")
        last = tabs[-1]
        assert take_one_action(last)
        last.wait_for_function(
            "r => document.getElementById('board').dataset.revision !== r", arg=revision, timeout=3000
        )
        # The poll is 30 s away: only the stream can bring the move this soon.
        other.wait_for_function(
            "r => document.getElementById('board').dataset.revision !== r", arg=revision, timeout=3000
        )
        context.close()
    finally:
        stop_server(process, folder)


def test_without_a_shared_worker_a_tab_holds_its_own_stream(browser, asgi_site, alice, bob):
    match = start_match(alice, [bob], options={"advantage": "0"})
    waiter = page_for(browser, asgi_site, bob)
    waiter.add_init_script("delete window.SharedWorker;")
    waiter.goto(f"{asgi_site}/matches/{match.pk}/")
    waiter.wait_for_function("() => document.documentElement.dataset.live === 'open'", timeout=5000)
    revision = waiter.locator("#board").get_attribute("data-revision")
    mover = page_for(browser, asgi_site, alice)
    mover.goto(f"{asgi_site}/matches/{match.pk}/")
    assert take_one_action(mover)
    waiter.wait_for_function("r => document.getElementById('board').dataset.revision !== r", arg=revision, timeout=3000)
