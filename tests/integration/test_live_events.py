"""Live events end to end: a real uvicorn serving dizzysite.asgi on a loopback port, real
Redis pub/sub between it and this test process (which plays the part of another web process or the
Celery worker), PostgreSQL shared by both. Streams are read over plain HTTP, as a browser's
EventSource reads them."""

from __future__ import annotations

import http.client
import json
import queue
import threading
import time
import uuid

import pytest

from dizzysite.netutil import port_open
from live import broadcast
from tests.asgi_server import session_cookie, start_server, stop_server
from tests.conftest import require
from tests.helpers import first_legal, start_match, user_to_act
from tests.integration.conftest import REDIS_URL, wait_for

pytestmark = pytest.mark.integration


@pytest.fixture
def redis_channels(settings):
    """This process and the server publish on one Redis, under a prefix of this test's own."""
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    settings.LIVE_REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"dizzytest-live-{uuid.uuid4().hex[:8]}:"
    broadcast.reset_broadcaster()
    yield {"LIVE_REDIS_URL": REDIS_URL, "LIVE_CHANNEL_PREFIX": settings.LIVE_CHANNEL_PREFIX}
    broadcast.reset_broadcaster()


@pytest.fixture
def asgi_server(transactional_db, redis_channels):
    process, port, folder = start_server(redis_channels, heartbeat_s=10)
    yield port
    stop_server(process, folder)


class StreamReader:
    """An open event stream over HTTP, read line by line in a thread into a queue of events."""

    def __init__(self, port: int, path: str, user, last_event_id: str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": f"sessionid={session_cookie(user)}", "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.status
        assert self.response.getheader("Content-Type") == "text/event-stream"
        assert self.response.getheader("Content-Encoding") is None  # not held back in a gzip buffer
        self.events: queue.Queue[dict | None] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        fields: dict[str, str] = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if line == "":
                    if "event" in fields:
                        self.events.put({**fields, "data": json.loads(fields["data"]), "at": time.monotonic()})
                    fields = {}
                elif not line.startswith(":") and ": " in line:
                    name, value = line.split(": ", 1)
                    fields[name] = value
        except (OSError, ValueError, AttributeError):  # closed by close(), from the test's thread
            pass
        self.events.put(None)  # the stream ended

    def next(self, timeout: float = 5.0) -> dict | None:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.connection.close()


def post_move_over_http(port: int, match, user) -> float:
    """The seat to act moves through the real server (CSRF cookie and header, as the page sends);
    returns when the answer came."""
    from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

    secret = _get_new_csrf_string()
    seat = match.seats.get(user=user)
    body = f"version={match.version}&move={json.dumps(first_legal(match, seat.number))}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(
        "POST",
        f"/matches/{match.pk}/move/",
        body=body.encode(),
        headers={
            "Cookie": f"sessionid={session_cookie(user)}; csrftoken={secret}",
            "X-CSRFToken": _mask_cipher_secret(secret),
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    response = connection.getresponse()
    response.read()
    answered = time.monotonic()
    assert response.status in (200, 302), response.status
    connection.close()
    return answered


def test_a_move_reaches_the_other_seat_and_a_spectator(asgi_server, alice, bob, carol):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    readers = [StreamReader(asgi_server, f"/live/match/{match.pk}/", user) for user in (other, carol)]
    for reader in readers:
        assert reader.next()["data"] == {"revision": match.revision}  # the current revision at once
    answered = post_move_over_http(asgi_server, match, mover)
    match.refresh_from_db()
    for reader in readers:
        event = reader.next()
        assert event["event"] == "revision"
        assert event["id"] == str(match.revision)
        assert event["data"] == {"revision": match.revision}  # a revision and nothing else
        assert event["at"] - answered < 1.0
        reader.close()


def test_a_reconnect_with_the_last_id_gets_the_missed_event(asgi_server, redis_channels, alice, bob):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    reader = StreamReader(asgi_server, f"/live/match/{match.pk}/", other)
    last_id = reader.next()["id"]
    reader.close()
    post_move_over_http(asgi_server, match, mover)  # made while `other` was away
    match.refresh_from_db()
    again = StreamReader(asgi_server, f"/live/match/{match.pk}/", other, last_event_id=last_id)
    event = again.next()
    assert event["id"] == str(match.revision) and int(event["id"]) > int(last_id)
    again.close()
    # The client went away twice: the server gave both slots of the per-user cap back at once.
    import redis

    slots = redis.Redis.from_url(REDIS_URL)
    key = f"{redis_channels['LIVE_CHANNEL_PREFIX']}streams:{other.pk}"
    wait_for(lambda: slots.zcard(key) == 0, 5, 0.1, "the stream slots to be given back")


def test_a_banned_users_stream_closes(asgi_server, alice, bob, make_user):
    from moderation.actions import suspend_user

    moderator = make_user("mod", is_staff=True)
    match = start_match(alice, [bob])
    reader = StreamReader(asgi_server, f"/live/match/{match.pk}/", bob)
    me = StreamReader(asgi_server, "/live/me/", bob)
    reader.next()
    me.next()
    banned_at = time.monotonic()
    suspend_user(moderator, bob, None, "bots", "spam")  # a ban, from this (another) process
    for stream in (reader, me):
        event = stream.next()
        while event is not None and event["event"] != "close":
            event = stream.next()  # a last revision or count may come first (the seat went to a bot)
        assert event is not None and event["event"] == "close"
        assert event["at"] - banned_at < 5.0  # the event, not the 10 s heartbeat
        assert stream.next() is None  # and the server ended the stream


def test_without_redis_the_watcher_hears_another_process(transactional_db, alice, bob, settings):
    """`make run` without Redis: the worker (here: this test process) changes a match; the server's
    watcher reads the revision once a second and the stream hears of it."""
    from games import actions

    settings.LIVE_REDIS_URL = ""
    broadcast.reset_broadcaster()
    process, port, folder = start_server({}, heartbeat_s=10)
    try:
        match = start_match(alice, [bob])
        mover = user_to_act(match)
        other = bob if mover.user == alice else alice
        reader = StreamReader(port, f"/live/match/{match.pk}/", other)
        assert reader.next()["data"] == {"revision": match.revision}
        actions.do_move(match.pk, mover.user, match.version, first_legal(match, mover.number))
        match.refresh_from_db()
        assert reader.next(timeout=4.0)["data"] == {"revision": match.revision}
        reader.close()
    finally:
        stop_server(process, folder)
        broadcast.reset_broadcaster()


def server_connections(application_name: str) -> int:
    """The server's open PostgreSQL connections (its DATABASE_URL names it), seen from this process."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [application_name])
        return cursor.fetchone()[0]


def test_open_streams_hold_no_database_connection_each(transactional_db, redis_channels, make_user):
    """Twenty-four open streams (boards, /live/me/ and the API's account stream), through several
    heartbeats whose checks query the database: the server holds a bounded number of connections (its
    one thread for the streams' queries), not one per stream."""
    from tests.asgi_server import database_url

    name = f"dizzy-conn-{uuid.uuid4().hex[:8]}"
    env = {**redis_channels, "DATABASE_URL": f"{database_url()}?application_name={name}"}
    process, port, folder = start_server(env, heartbeat_s=1)
    readers: list[StreamReader] = []
    try:
        for n in range(4):
            me, them = make_user(f"conn{n}a"), make_user(f"conn{n}b")
            match = start_match(me, [them])
            for user in (me, them):
                readers += [StreamReader(port, f"/live/match/{match.pk}/", user) for _ in range(2)]
                readers.append(StreamReader(port, "/live/me/", user))
        for reader in readers:
            assert reader.next() is not None  # open, and past its first queries
        api = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        api.request("GET", "/api/v1/stream/event", headers={"Cookie": f"sessionid={session_cookie(me)}"})
        assert api.getresponse().status == 200
        time.sleep(3.5)  # three heartbeats: each board and /live/me/ stream checks its session and user
        held = server_connections(name)
        assert 1 <= held <= 2, f"{held} connections for {len(readers) + 1} open streams"
        assert all(None not in list(reader.events.queue) for reader in readers)  # all still open
        api.close()
    finally:
        for reader in readers:
            reader.close()
        stop_server(process, folder)


def server_threads(pid: int) -> int:
    for line in open(f"/proc/{pid}/status").read().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


def test_open_streams_hold_no_thread_each(transactional_db, redis_channels, make_user):
    """Thirty open browser streams (/live/, a board's, /live/me/), through heartbeats: they wait in the event loop,
    so the server's threads stay what one stream needs (Django would give each a thread of its own)."""
    process, port, folder = start_server(redis_channels, heartbeat_s=1)
    readers: list[StreamReader] = []
    try:
        me, them = make_user("threads_a"), make_user("threads_b")
        match = start_match(me, [them])
        first = StreamReader(port, f"/live/?boards={match.pk}", me)  # the process's shared threads start
        assert first.next() is not None
        time.sleep(1.5)
        before = server_threads(process.pid)
        for n in range(10):
            user = make_user(f"threads{n}")
            readers += [
                StreamReader(port, f"/live/?boards={match.pk}", user),
                StreamReader(port, f"/live/match/{match.pk}/", user),
                StreamReader(port, "/live/me/", user),
            ]
        for reader in readers:
            assert reader.next() is not None  # open, and past its first queries
        time.sleep(2.5)  # two heartbeats, each checking sessions and users in the database
        assert all(None not in list(reader.events.queue) for reader in readers)  # all still open
        assert server_threads(process.pid) <= before + 2, f"{before} threads before, 30 streams later more"
        readers.append(first)
    finally:
        for reader in readers:
            reader.close()
        stop_server(process, folder)


def test_a_stopping_server_ends_its_open_streams_at_once(transactional_db, redis_channels, alice, bob):
    """SIGTERM (a deploy): the server's open streams end at once, without a "close" event (which
    would stop the browser from reconnecting), so the process is gone long before its graceful
    timeout of 20 s, and the browsers reconnect to the processes that stay."""
    import os
    import signal

    process, port, folder = start_server(redis_channels, heartbeat_s=10, graceful_s=20)
    try:
        match = start_match(alice, [bob])
        readers = [
            StreamReader(port, f"/live/?boards={match.pk}", bob),
            StreamReader(port, f"/live/match/{match.pk}/", alice),
            StreamReader(port, "/live/me/", alice),
        ]
        for reader in readers:
            assert reader.next() is not None  # open, and talking
        stopped_at = time.monotonic()
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
        assert time.monotonic() - stopped_at < 3
        for reader in readers:
            events = []
            while (event := reader.next()) is not None:
                events.append(event["event"])
            assert "close" not in events
    finally:
        stop_server(process, folder)
