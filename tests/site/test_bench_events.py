"""bench/events.py's accounting: what counts as delivered, lost, duplicated or superseded,
and whose latency is measured; and its client's reading of both stream formats."""

from __future__ import annotations

import asyncio

from bench import events
from bench.events_client import API, BROWSER, SSE, Played, Subscriber, _parse


def subscriber(match: int, user: int, received: dict[int, list[float]]) -> Subscriber:
    return Subscriber(match, user, API, {}, 0, received=received)


def test_delivery_counts_each_move_for_each_subscriber_of_its_match() -> None:
    mover, other, spectator = (
        subscriber(1, 10, {5: [1.02]}),
        subscriber(1, 11, {5: [1.03, 1.5], 6: [2.0]}),  # 5 twice: one duplicate
        subscriber(2, 12, {}),  # another match: none of its business
    )
    played = [
        Played(match=1, user=10, revision=5, sent=0.9, answered=1.0, status=200),
        Played(match=1, user=11, revision=6, sent=1.9, answered=2.01, status=200),
        Played(match=1, user=10, revision=0, sent=3.0, answered=3.1, status=409),  # refused: nothing expected
    ]
    figures = events.delivery([mover, other, spectator], played)
    # Revision 5: both heard it. Revision 6: the other seat heard it, the mover (user 10) never did.
    assert (figures["expected"], figures["delivered"], figures["lost"], figures["duplicated"]) == (4, 3, 1, 1)
    # The latency is the other seat's, from the move's answer: 1.03 - 1.0 (the mover's own is not counted).
    assert round(figures["p50_ms"]) == 30 and round(figures["max_ms"]) == 30
    assert round(events.percentile([1.0, 2.0, 3.0, 4.0], 0.5), 1) == 3.0


def test_a_later_revision_supersedes_a_missed_one() -> None:
    reader = subscriber(1, 11, {7: [3.0]})
    played = [Played(match=1, user=10, revision=6, sent=1.0, answered=1.1, status=200)]
    figures = events.delivery([reader], played)
    assert (figures["delivered"], figures["lost"], figures["superseded"]) == (0, 0, 1)


class FakeReader:
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def readline(self) -> bytes:
        line, _, self.body = self.body.partition(b"\n")
        return line + b"\n"

    async def readexactly(self, size: int) -> bytes:
        chunk, self.body = self.body[:size], self.body[size:]
        return chunk


def chunked(*parts: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def test_the_client_reads_sse_and_ndjson() -> None:
    sse = Subscriber(1, 10, SSE, {}, 0)
    body = chunked(b"retry: 3000\n\nid: 4\nevent: revision\n", b'data: {"revision": 4}\n\n: heartbeat\n\n')
    asyncio.run(_parse(sse, FakeReader(body), {"transfer-encoding": "chunked"}))
    assert list(sse.received) == [4] and sse.heartbeats == 1
    api = Subscriber(1, 10, API, {}, 0)
    body = chunked(b'{"type":"revision","match":1,"revision":4}\n\n{"type":"revision","match":1,"revision":5}\n')
    asyncio.run(_parse(api, FakeReader(body), {"transfer-encoding": "chunked"}))
    assert list(api.received) == [4, 5] and api.heartbeats == 1


def test_the_client_reads_a_browsers_stream() -> None:
    """GET /live/?boards=: counts first, then revisions with the match in the data and no id."""
    browser = Subscriber(1, 10, BROWSER, {}, 3)
    body = chunked(
        b'retry: 3000\n\nevent: turns\ndata: {"count":1}\n\nevent: bell\ndata: {"unread":0}\n\n',
        b'event: revision\ndata: {"match":1,"revision":4}\n\n: heartbeat\n\nevent: lobby\ndata: {}\n\n',
        b'event: revision\ndata: {"match":1,"revision":6}\n\n',
    )
    asyncio.run(_parse(browser, FakeReader(body), {"transfer-encoding": "chunked"}))
    assert list(browser.received) == [4, 6] and browser.heartbeats == 1
    assert browser.path == "/live/?boards=1:3"


def test_the_redrawn_latency_is_the_other_boards_fragment() -> None:
    """From the move's answer to the other seat's fragment read; a revision whose fragment never came
    (a later one was drawn instead) is not counted."""
    other = Subscriber(1, 11, BROWSER, {}, 0, received={5: [1.03], 6: [2.02]})
    other.redrawn = {5: 1.08}
    mover = Subscriber(1, 10, BROWSER, {}, 0, received={5: [1.02], 6: [2.01]})
    mover.redrawn = {5: 1.5, 6: 2.5}  # the mover's own board is not the latency
    played = [
        Played(match=1, user=10, revision=5, sent=0.9, answered=1.0, status=200),
        Played(match=1, user=10, revision=6, sent=1.9, answered=2.0, status=200),
    ]
    figures = events.delivery([other, mover], played)
    assert figures["redrawn"] == 1
    assert round(figures["redrawn_p50_ms"]) == 80 and round(figures["redrawn_max_ms"]) == 80
