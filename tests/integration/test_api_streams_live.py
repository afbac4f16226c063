"""The API's streams end to end: a real uvicorn on a loopback port, real Redis pub/sub
between it and this test process (another web process or the Celery worker), PostgreSQL shared by
both; the streams read over plain HTTP as a bot reads them (NDJSON)."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
import uuid

import pytest

from api.models import ApiToken
from dizzysite.netutil import port_open
from games import actions
from live import broadcast
from tests.conftest import require
from tests.helpers import first_legal, start_match, user_to_act
from tests.integration.conftest import REDIS_URL
from tests.integration.test_live_events import start_server, stop_server

pytestmark = pytest.mark.integration

ALLOWED_KEYS = {"type", "match", "revision", "unread"}
HEARTBEAT_S = 10


@pytest.fixture
def asgi_server(transactional_db, settings):
    """uvicorn serving dizzysite.asgi, and this process, on one Redis under this test's own prefix."""
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    settings.LIVE_REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"dizzytest-api-{uuid.uuid4().hex[:8]}:"
    broadcast.reset_broadcaster()
    process, port, folder = start_server(
        {"LIVE_REDIS_URL": REDIS_URL, "LIVE_CHANNEL_PREFIX": settings.LIVE_CHANNEL_PREFIX}, heartbeat_s=HEARTBEAT_S
    )
    yield port
    stop_server(process, folder)
    broadcast.reset_broadcaster()


def token(user, scopes: list[str] | None = None) -> str:
    return (ApiToken.issue(user, "live") if scopes is None else ApiToken.issue(user, "live", scopes))[1]


def call(port: int, method: str, path: str, raw: str, body: dict | None = None) -> tuple[int, dict, float]:
    """One API request: (status, JSON answer, when the answer came)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {raw}", "Content-Type": "application/json"}
    connection.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=headers)
    response = connection.getresponse()
    text = response.read()
    answered = time.monotonic()
    connection.close()
    return response.status, (json.loads(text) if text else {}), answered


class Lines:
    """An open NDJSON stream, read in a thread: each line with when it came ({} a heartbeat)."""

    def __init__(self, port: int, path: str, raw: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {raw}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        assert self.response.getheader("Content-Type") == "application/x-ndjson"
        self.lines: queue.Queue[tuple[dict, float] | None] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode().strip()
                self.lines.put((json.loads(line) if line else {}, time.monotonic()))
        except (OSError, ValueError, AttributeError):  # closed by close(), from the test's thread
            pass
        self.lines.put(None)

    def event(self, timeout: float = 5.0) -> tuple[dict, float] | None:
        """The next line that is not a heartbeat, or None at the end of the stream."""
        while True:
            item = self.lines.get(timeout=timeout)
            if item is None or item[0]:
                if item is not None:
                    assert set(item[0]) <= ALLOWED_KEYS, item  # kinds, ids, revisions, counts: nothing else
                return item

    def close(self) -> None:
        self.connection.close()


def test_streams_refuse_without_a_read_token(asgi_server, alice, bob):
    match = start_match(alice, [bob])
    for path in (f"/api/v1/stream/match/{match.pk}", "/api/v1/stream/event"):
        assert call(asgi_server, "GET", path, "dzy_forged")[0] == 401
        status, answer, _ = call(asgi_server, "GET", path, token(alice, ["play"]))
        assert status == 403 and "read" in answer["detail"]


def test_a_move_through_the_api_reaches_the_other_seat_and_a_spectator(asgi_server, alice, bob, carol):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    streams = [Lines(asgi_server, f"/api/v1/stream/match/{match.pk}", token(user)) for user in (other, carol)]
    for stream in streams:
        assert stream.event()[0] == {"type": "revision", "match": match.pk, "revision": match.revision}
    seat = match.seats.get(user=mover).number
    body = {"version": match.version, "move": first_legal(match, seat)}
    status, view, answered = call(asgi_server, "POST", f"/api/v1/matches/{match.pk}/moves", token(mover), body)
    assert status == 200
    for stream in streams:
        line, heard = stream.event()
        assert line == {"type": "revision", "match": match.pk, "revision": view["match"]["revision"]}
        assert heard - answered < 1.0
        stream.close()


def test_the_account_stream_hears_a_turn_made_in_another_process(asgi_server, alice, bob):
    match = start_match(alice, [bob])
    to_act = user_to_act(match)
    other = bob if to_act.user == alice else alice
    stream = Lines(asgi_server, "/api/v1/stream/event", token(other))
    for _ in range(20):  # this process plays (as the worker would) until it is `other`'s turn
        seat = user_to_act(match)
        if seat.user == other:
            break
        match = actions.do_move(match.pk, seat.user, match.version, first_legal(match, seat.number))
    assert stream.event()[0] == {"type": "turn", "match": match.pk}
    stream.close()


def test_a_revoked_tokens_stream_ends_at_once(asgi_server, alice, bob):
    match = start_match(alice, [bob])
    raw = token(alice)
    stream = Lines(asgi_server, f"/api/v1/stream/match/{match.pk}", raw)
    assert stream.event() is not None
    revoked_at = time.monotonic()
    assert call(asgi_server, "DELETE", "/api/v1/token", raw)[0] == 204  # the token revokes itself
    assert stream.event(timeout=8.0) is None  # the server ended the stream...
    assert time.monotonic() - revoked_at < 5.0  # ...on the event, not at the 10 s heartbeat
    assert call(asgi_server, "GET", f"/api/v1/stream/match/{match.pk}", raw)[0] == 401


def test_the_long_poll_answers_on_the_event_and_holds_up_nothing(asgi_server, alice, bob):
    match = start_match(alice, [bob])
    mover = user_to_act(match)
    raw = token(alice)
    answers: list[tuple[int, dict, float]] = []
    path = f"/api/v1/matches/{match.pk}/events?since={match.revision}"
    polls = [threading.Thread(target=lambda: answers.append(call(asgi_server, "GET", path, raw))) for _ in range(3)]
    for poll in polls:
        poll.start()
    time.sleep(0.5)
    started = time.monotonic()
    status, me, _ = call(asgi_server, "GET", "/api/v1/me", raw)  # served while three polls wait
    assert status == 200 and me["username"] == "alice" and time.monotonic() - started < 2.0
    assert not answers
    moved = actions.do_move(match.pk, mover.user, match.version, first_legal(match, mover.number))
    moved_at = time.monotonic()
    for poll in polls:
        poll.join(10)
    assert len(answers) == 3
    for status, answer, answered in answers:
        assert status == 200
        assert answer == {"changed": True, "revision": moved.revision, "version": 1, "status": "active"}
        assert answered - moved_at < 1.0
