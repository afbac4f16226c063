"""live.broadcast: the in-process and the Redis fan-out, and the no-Redis watcher's diffing."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from live import broadcast
from live.broadcast import (
    RESYNC,
    REVISION,
    InProcessBroadcaster,
    Message,
    RedisBroadcaster,
    listen,
    match_channel,
    publish_lobby,
    publish_match,
    publish_user,
    user_channel,
)
from live.watcher import changes
from tests.conftest import require
from tests.integration.conftest import port_open  # from dizzysite.netutil once merged with main

REDIS_URL = "redis://127.0.0.1:6379/15"


@pytest.fixture
def in_process(settings):
    settings.LIVE_REDIS_URL = ""
    broadcast.reset_broadcaster()
    yield
    broadcast.reset_broadcaster()


@pytest.fixture
def on_redis(settings):
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    settings.LIVE_REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"livetest-{uuid.uuid4().hex[:8]}:"
    broadcast.reset_broadcaster()
    yield
    broadcast.reset_broadcaster()


async def two_listeners_hear_their_channels() -> None:
    async with listen([match_channel(7)]) as board, listen([user_channel(3), "lobby"]) as me:
        # Published from another thread, as a sync view's on_commit hook runs under ASGI.
        thread = threading.Thread(target=lambda: (publish_match(7, 12), publish_user(3, "bell"), publish_lobby()))
        thread.start()
        thread.join()
        assert await board.get(2) == Message("match:7", REVISION, {"revision": 12})
        assert await me.get(2) == Message("user:3", "bell", {})
        assert await me.get(2) == Message("lobby", "lobby", {})
        publish_match(8, 1)  # nobody listens to match 8 here
        assert await board.get(0.3) is None


def test_in_process_fan_out(in_process):
    assert isinstance(broadcast.get_broadcaster(), InProcessBroadcaster)
    asyncio.run(two_listeners_hear_their_channels())


def test_in_process_listener_gone_is_forgotten(in_process):
    async def run() -> None:
        async with listen([match_channel(5)]):
            assert broadcast.get_broadcaster().watched("match") == [5]
        assert broadcast.get_broadcaster().watched("match") == []

    asyncio.run(run())


def test_a_full_queue_turns_into_one_resync(in_process, monkeypatch):
    monkeypatch.setattr(broadcast, "QUEUE_SIZE", 3)

    async def run() -> None:
        async with listen([match_channel(1)]) as sub:
            for revision in range(1, 6):
                publish_match(1, revision)
            await asyncio.sleep(0.05)
            first = await sub.get(1)
            assert sub.overflowed
            assert first is not None and first.kind == RESYNC
            assert await sub.get(1) == Message("match:1", REVISION, {"revision": 5})

    asyncio.run(run())


def test_publishing_never_raises(settings, caplog):
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    broadcast.reset_broadcaster()
    try:
        publish_match(1, 2)  # logged, not raised: a move never fails for its event
    finally:
        broadcast.reset_broadcaster()
    assert "could not publish" in caplog.text


def test_redis_fan_out(on_redis):
    assert isinstance(broadcast.get_broadcaster(), RedisBroadcaster)
    asyncio.run(two_listeners_hear_their_channels())


def test_redis_keeps_prefixes_apart(on_redis, settings):
    """Another site (or test run) on the same Redis publishes under its own prefix: not heard here."""

    async def run() -> None:
        async with listen([match_channel(7)]) as board:
            other = RedisBroadcaster(REDIS_URL, "someone-else:")
            other.send(Message(match_channel(7), REVISION, {"revision": 99}))
            publish_match(7, 3)
            assert await board.get(2) == Message("match:7", REVISION, {"revision": 3})
            assert await board.get(0.3) is None

    asyncio.run(run())


def test_redis_lost_and_back_tells_listeners_to_resync(on_redis):
    """Messages published while the pub/sub connection was down are lost: when it is back, every
    listener gets a RESYNC (a board then re-reads its revision), and later messages arrive again."""
    import redis

    async def run() -> None:
        async with listen([match_channel(4)]) as board:
            name = broadcast.get_broadcaster().reader_name
            admin = redis.Redis.from_url(REDIS_URL)
            ours = [c["id"] for c in admin.client_list() if c.get("name") == name]
            assert len(ours) == 1
            admin.client_kill_filter(_id=ours[0])  # this process's connection only
            resync = await board.get(5)
            assert resync == Message("match:4", RESYNC)
            publish_match(4, 8)
            assert await board.get(2) == Message("match:4", REVISION, {"revision": 8})

    asyncio.run(run())


def test_watcher_reports_changes_and_first_sightings():
    seen_matches = {1: 4, 2: 9}
    seen_users = {10: (1, 50, True), 11: (0, 7, True)}
    revisions = {1: 5, 2: 9, 3: 1}  # 3: a first sighting (the stream dedupes what it already sent)
    marks = {10: (2, 50, True), 11: (0, 8, False), 12: (3, 3, True)}
    assert changes(seen_matches, seen_users, revisions, marks) == [
        Message("match:1", REVISION, {"revision": 5}),
        Message("match:3", REVISION, {"revision": 1}),
        Message("user:10", "turns"),
        Message("user:11", "bell"),
        Message("user:11", "close"),
        Message("user:12", "turns"),
        Message("user:12", "bell"),
    ]
    assert changes(seen_matches | revisions, marks, revisions, marks) == []  # nothing new
