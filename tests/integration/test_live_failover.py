"""A server process dies under open streams (SIGKILL: no goodbye, as a crash or the kernel's OOM
killer would end it) while players keep moving through the other processes. Each browser reconnects
to a process that stays with the revisions it has, and ends knowing every board's latest revision:
the moves made before, during and after the gap all reach it."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.asgi_server import start_server, stop_server
from tests.helpers import play_first_move, start_match
from tests.integration.conftest import wait_for
from tests.integration.test_live_events import StreamReader, redis_channels  # noqa: F401 (a fixture)

pytestmark = pytest.mark.integration

MATCHES = 4


class Browser:
    """One browser's stream (GET /live/?boards=): the boards it follows and the revision it knows of
    each, as static/js/live-worker.js keeps them."""

    def __init__(self, user, boards: dict[int, int]) -> None:
        self.user = user
        self.known = dict(boards)
        self.reader: StreamReader | None = None
        self.ended = False

    def connect(self, port: int) -> None:
        boards = ",".join(f"{match_id}:{revision}" for match_id, revision in self.known.items())
        self.reader = StreamReader(port, f"/live/?boards={boards}", self.user)
        self.ended = False

    def read(self) -> None:
        """Take in what has arrived; a revision event raises what the browser knows."""
        assert self.reader is not None
        while not self.reader.events.empty():
            event = self.reader.events.get_nowait()
            if event is None:
                self.ended = True
            elif event["event"] == "revision":
                match_id = event["data"]["match"]
                self.known[match_id] = max(self.known[match_id], event["data"]["revision"])

    def knows(self, revisions: dict[int, int]) -> bool:
        self.read()
        return all(self.known[match_id] == revisions[match_id] for match_id in self.known)


def revisions(matches) -> dict[int, int]:
    for match in matches:
        match.refresh_from_db()
    return {match.pk: match.revision for match in matches}


def move_everywhere(matches) -> None:
    """One move in every match, made by another process (this one): its events go out over Redis."""
    for match in matches:
        play_first_move(match)


def test_streams_of_a_killed_server_reconnect_and_miss_nothing(transactional_db, redis_channels, make_user):  # noqa: F811
    doomed, doomed_port, doomed_folder = start_server(redis_channels, heartbeat_s=10)
    staying, staying_port, staying_folder = start_server(redis_channels, heartbeat_s=10)
    try:
        matches = [start_match(make_user(f"kill{n}a"), [make_user(f"kill{n}b")]) for n in range(MATCHES)]
        current = revisions(matches)
        browsers = [
            Browser(seat.user, {match.pk: current[match.pk]}) for match in matches for seat in match.seats.all()
        ]
        watcher = Browser(make_user("killwatcher"), current)  # a spectator of every board
        browsers.append(watcher)
        for browser in browsers:
            browser.connect(doomed_port)
            assert browser.reader is not None and browser.reader.next() is not None  # open, and talking

        move_everywhere(matches)
        current = revisions(matches)
        wait_for(lambda: all(b.knows(current) for b in browsers), 10, 0.1, "the first moves to arrive")

        os.killpg(doomed.pid, signal.SIGKILL)
        doomed.wait(10)
        wait_for(lambda: all(b.read() or b.ended for b in browsers), 10, 0.1, "the streams to end")

        move_everywhere(matches)  # made while every browser is away
        missed = revisions(matches)
        reconnected_at = time.monotonic()
        for browser in browsers:
            browser.connect(staying_port)
        # The reconnect tells each browser at once what it missed.
        wait_for(lambda: all(b.knows(missed) for b in browsers), 5, 0.1, "the missed moves")
        assert time.monotonic() - reconnected_at < 5

        move_everywhere(matches)
        final = revisions(matches)
        wait_for(lambda: all(b.knows(final) for b in browsers), 10, 0.1, "the moves after the reconnect")
        lost = [(b.user.username, m) for b in browsers for m in b.known if b.known[m] != final[m]]
        assert lost == []
        assert all(not browser.ended for browser in browsers)  # still open on the process that stays
        assert watcher.known == final and len(final) == MATCHES
    finally:
        stop_server(doomed, doomed_folder)
        stop_server(staying, staying_folder)
