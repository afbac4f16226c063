"""The events benchmark's client side: many open streams and timed moves on one asyncio loop.

Pure standard library, no Django (bench/events.py runs it in its own process): HTTP/1.1 over
asyncio streams, written by hand so that 2,000 open streams cost the client little. A stream is
the board's Server-Sent Events (`/live/match/<id>/`, a session cookie), a browser's one stream
(`/live/?boards=<id>:<revision>`, what static/js/live-worker.js opens) or the API's NDJSON
(`/api/v1/stream/match/<id>`, a Bearer token); all say "revision N" for a match. A browser's stream may
also redraw its board as the page does: on each revision it GETs the board's fragment.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

SSE, API, BROWSER = "sse", "api", "browser"


@dataclass
class Subscriber:
    match: int  # the match's id
    user: int  # the user whose stream this is
    kind: str  # SSE or API
    headers: dict[str, str]
    since: int  # the revision it has seen when it opens
    received: dict[int, list[float]] = field(default_factory=dict)  # revision -> monotonic times
    heartbeats: int = 0
    opened: float = 0.0  # monotonic time the stream's headers came, 0 while not open
    status: int = 0
    error: str = ""
    redraw_port: int = 0  # a browser's board: GET the fragment on this port at each revision, 0: not
    redrawn: dict[int, float] = field(default_factory=dict)  # revision -> monotonic time its fragment came
    fragment_statuses: dict[int, int] = field(default_factory=dict)  # status -> how many fragment GETs
    redrawing: set[asyncio.Task] = field(default_factory=set)  # the fragment GETs under way

    @property
    def path(self) -> str:
        if self.kind == SSE:
            return f"/live/match/{self.match}/?since={self.since}"
        if self.kind == BROWSER:
            return f"/live/?boards={self.match}:{self.since}"
        return f"/api/v1/stream/match/{self.match}?since={self.since}"


def request_bytes(method: str, path: str, headers: dict[str, str], body: bytes | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status and the headers (names in lower case) of a response."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = (await reader.readline()).decode("latin-1").rstrip("\r\n")
        if not line:
            return status, headers
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()


async def body_chunks(reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[bytes]:
    """The body as it comes: de-chunked, or up to Content-Length, or to the end of the connection."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()  # the empty trailer
                return
            chunk = await reader.readexactly(size + 2)
            yield chunk[:-2]
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"]))
    else:
        while chunk := await reader.read(65536):
            yield chunk


async def lines_of(reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[str]:
    buffer = b""
    async for chunk in body_chunks(reader, headers):
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        for line in complete:
            yield line.decode("utf-8").rstrip("\r")


def heard(sub: Subscriber, revision: int) -> None:
    sub.received.setdefault(revision, []).append(time.monotonic())


async def follow(sub: Subscriber, port: int, stop: asyncio.Event) -> None:
    """Open the subscriber's stream and note every revision and heartbeat until `stop`."""
    writer = None
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        writer.write(request_bytes("GET", sub.path, sub.headers))
        await writer.drain()
        sub.status, headers = await read_head(reader)
        if sub.status != 200:
            sub.error = f"status {sub.status}"
            return
        sub.opened = time.monotonic()
        reading = asyncio.ensure_future(_parse(sub, reader, headers))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if reading.done():
            reading.result()  # raises what the reader met
            if not stop.is_set():
                sub.error = "the server ended the stream"
        reading.cancel()
        stopping.cancel()
    except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as error:
        sub.error = f"{type(error).__name__}: {error}"
    finally:
        if writer is not None:
            writer.close()


async def redraw(sub: Subscriber, revision: int, shown: int) -> None:
    """The page's answer to a revision event: GET its board's fragment (?since= the revision it shows)."""
    headers = {"Cookie": sub.headers["Cookie"], "HX-Request": "true"}
    try:
        answer = await call(sub.redraw_port, "GET", f"/matches/{sub.match}/?since={shown}", headers)
    except (OSError, ConnectionError, asyncio.IncompleteReadError) as error:
        sub.error = sub.error or f"fragment: {type(error).__name__}: {error}"
        sub.fragment_statuses[0] = sub.fragment_statuses.get(0, 0) + 1
        return
    sub.fragment_statuses[answer.status] = sub.fragment_statuses.get(answer.status, 0) + 1
    if answer.status == 200:
        sub.redrawn.setdefault(revision, answer.answered)


async def _parse_browser(sub: Subscriber, lines: AsyncIterator[str]) -> None:
    """A browser's stream: "event: revision" with "data: {"match": id, "revision": n}" (no id line)."""
    event, data = "", ""
    shown = sub.since
    async for line in lines:
        if line.startswith(":"):
            sub.heartbeats += 1
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif not line:
            if event == "revision":
                revision = int(json.loads(data)["revision"])
                heard(sub, revision)
                if sub.redraw_port and revision > shown:
                    task = asyncio.ensure_future(redraw(sub, revision, shown))
                    sub.redrawing.add(task)
                    task.add_done_callback(sub.redrawing.discard)
                    shown = revision
            event, data = "", ""


async def _parse(sub: Subscriber, reader: asyncio.StreamReader, headers: dict[str, str]) -> None:
    if sub.kind == BROWSER:
        await _parse_browser(sub, lines_of(reader, headers))
        return
    event_id: int | None = None
    async for line in lines_of(reader, headers):
        if sub.kind == SSE:
            if line.startswith(":"):
                sub.heartbeats += 1
            elif line.startswith("id:"):
                event_id = int(line[3:].strip())
            elif not line and event_id is not None:
                heard(sub, event_id)
                event_id = None
        elif not line:
            sub.heartbeats += 1
        else:
            event = json.loads(line)
            if event.get("type") == "revision":
                heard(sub, int(event["revision"]))


@dataclass
class Answer:
    status: int
    body: bytes
    sent: float
    answered: float  # monotonic time the whole answer was read


async def call(port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None) -> Answer:
    """One request on its own connection (Connection: close)."""
    sent = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request_bytes(method, path, {**headers, "Connection": "close"}, body))
        await writer.drain()
        status, response_headers = await read_head(reader)
        parts = [chunk async for chunk in body_chunks(reader, response_headers)]
        return Answer(status, b"".join(parts), sent, time.monotonic())
    finally:
        writer.close()


@dataclass
class Move:
    match: int
    user: int
    version: int
    move: dict
    token: str


@dataclass
class Played:
    match: int
    user: int
    revision: int  # the match's revision in the answer, 0 when refused
    sent: float
    answered: float
    status: int


async def play(port: int, move: Move) -> Played:
    body = json.dumps({"version": move.version, "move": move.move}).encode()
    headers = {"Authorization": f"Bearer {move.token}", "Content-Type": "application/json"}
    answer = await call(port, "POST", f"/api/v1/matches/{move.match}/moves", headers, body)
    revision = json.loads(answer.body)["match"]["revision"] if answer.status == 200 else 0
    return Played(move.match, move.user, revision, answer.sent, answer.answered, answer.status)


async def play_at_rate(port: int, chains: list[list[Move]], rate: float, seconds: float) -> list[Played]:
    """Moves at `rate` a second for `seconds`, round robin over the matches; one match's moves go in
    order (the next one only after the answer to the last), a refused move ends its match's chain."""
    played: list[Played] = []
    queues = [list(reversed(chain)) for chain in chains if chain]
    busy: set[int] = set()
    tasks: set[asyncio.Task] = set()
    start = time.monotonic()
    turn = 0

    async def one(index: int, move: Move) -> None:
        try:
            result = await play(port, move)
            played.append(result)
            if result.status != 200:
                queues[index].clear()
        finally:
            busy.discard(index)

    for tick in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + tick / rate - time.monotonic()))
        for _ in range(len(queues)):  # the next match with a move ready and none in flight
            index, turn = turn % len(queues), turn + 1
            if queues[index] and index not in busy:
                busy.add(index)
                task = asyncio.ensure_future(one(index, queues[index].pop()))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                break
    if tasks:
        await asyncio.wait(tasks)
    return played


async def redraws_done(subs: list[Subscriber], timeout: float) -> None:
    """Wait for the fragment GETs under way (at most `timeout` seconds), then give up on the rest."""
    pending = {task for sub in subs for task in sub.redrawing}
    if pending:
        _, late = await asyncio.wait(pending, timeout=timeout)
        for task in late:
            task.cancel()


async def open_all(subs: list[Subscriber], port: int, stop: asyncio.Event, per_second: float) -> list[asyncio.Task]:
    """Start following every subscriber, `per_second` new streams a second at most, and wait until
    each is open or failed."""
    tasks = []
    for n, sub in enumerate(subs):
        tasks.append(asyncio.ensure_future(follow(sub, port, stop)))
        if per_second and n % max(1, int(per_second / 10)) == 0:
            await asyncio.sleep(0.1)
    while any(not s.opened and not s.error and not t.done() for s, t in zip(subs, tasks)):
        await asyncio.sleep(0.1)
    return tasks


async def repeat(port: int, method: str, paths: list[tuple[str, dict[str, str]]], count: int, expect: int) -> int:
    """`count` requests over `paths` in turn, 4 at a time: how many answered `expect`."""
    good = 0
    queue = list(range(count))

    async def worker() -> None:
        nonlocal good
        while queue:
            path, headers = paths[queue.pop() % len(paths)]
            answer = await call(port, method, path, headers)
            good += answer.status == expect

    await asyncio.gather(*(worker() for _ in range(4)))
    return good
