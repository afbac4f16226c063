"""The per-user cap on open streams (settings.LIVE_MAX_STREAMS_PER_USER; one more gets 429).

Each open stream holds a slot that expires unless its heartbeat renews it, so a server process that
dies leaves no slot held for long. With Redis the slots are one sorted set per user (score: when the
slot expires), shared by every server process; without Redis they live in this process (it is the
only one: `make run`). A stream first adds its slot, then counts: two streams opening at once can
both be refused, never both let over the cap.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
import weakref
from typing import Any

from django.conf import settings

from live.broadcast import RedisBroadcaster, get_broadcaster

log = logging.getLogger(__name__)


def slot_seconds() -> float:
    return 3.0 * settings.LIVE_HEARTBEAT_SECONDS


POOL_SIZE = 8  # Redis connections a server process uses for the slots

_local: dict[int, dict[str, float]] = {}
_local_lock = threading.Lock()
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()


def _redis() -> tuple[Any, str] | None:
    broadcaster = get_broadcaster()
    if not isinstance(broadcaster, RedisBroadcaster):
        return None
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        import redis.asyncio as aioredis

        # A fixed number of connections a process, and a stream that needs one waits for it: however
        # many streams claim or renew at once (their heartbeats come together), the pool cannot run
        # out ("Too many connections") and Redis sees POOL_SIZE connections a process, not one a stream.
        pool = aioredis.BlockingConnectionPool.from_url(
            broadcaster.url, max_connections=POOL_SIZE, timeout=None, socket_timeout=5, socket_connect_timeout=2
        )
        client = _clients[loop] = aioredis.Redis(connection_pool=pool)
    return client, broadcaster.prefix


async def claim(user_id: int) -> str | None:
    """A new slot's token, or None when the user already holds the most streams allowed."""
    token, now = uuid.uuid4().hex, time.time()
    limit = settings.LIVE_MAX_STREAMS_PER_USER
    redis = _redis()
    if redis is None:
        with _local_lock:
            slots = _local.setdefault(user_id, {})
            for old in [t for t, expires in slots.items() if expires < now]:
                del slots[old]
            if len(slots) >= limit:
                return None
            slots[token] = now + slot_seconds()
            return token
    client, prefix = redis
    key = f"{prefix}streams:{user_id}"
    async with client.pipeline(transaction=True) as pipe:
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {token: now + slot_seconds()})
        pipe.zcard(key)
        pipe.expire(key, int(slot_seconds()) + 1)
        count = (await pipe.execute())[2]
    if count > limit:
        await client.zrem(key, token)
        return None
    return token


async def renew_many(slots: list[tuple[int, str]]) -> None:
    """Renew these (user, token) slots: the heartbeats of many streams, in one round trip."""
    expires = time.time() + slot_seconds()
    redis = _redis()
    if redis is None:
        with _local_lock:
            for user_id, token in slots:
                _local.setdefault(user_id, {})[token] = expires
        return
    client, prefix = redis
    try:
        async with client.pipeline(transaction=False) as pipe:
            for user_id, token in slots:
                key = f"{prefix}streams:{user_id}"
                pipe.zadd(key, {token: expires})
                pipe.expire(key, int(slot_seconds()) + 1)
            await pipe.execute()
    except Exception:  # Redis away for a moment: the streams go on, their slots may lapse meanwhile
        log.warning("live: could not renew the streams' slots", exc_info=True)


async def arelease(user_id: int, token: str) -> None:
    """Give the slot back from the event loop (a stream's end, or its client gone)."""
    redis = _redis()
    if redis is None:
        release(user_id, token)
        return
    client, prefix = redis
    try:
        await client.zrem(f"{prefix}streams:{user_id}", token)
    except Exception:  # Redis away: the slot expires by itself
        log.warning("live: could not give a stream's slot back", exc_info=True)


def release(user_id: int, token: str) -> None:
    """Give the slot back (sync: the response's close() calls it, in the web process's thread)."""
    broadcaster = get_broadcaster()
    if not isinstance(broadcaster, RedisBroadcaster):
        with _local_lock:  # the loop claims, a server thread may release (the response's close())
            slots = _local.get(user_id, {})
            slots.pop(token, None)
            if not slots:
                _local.pop(user_id, None)
        return
    try:
        broadcaster.sync_client().zrem(f"{broadcaster.prefix}streams:{user_id}", token)
    except Exception:  # Redis away: the slot expires by itself
        log.warning("live: could not give a stream's slot back", exc_info=True)
