"""The fan-out layer of the live events: publish from anywhere, listen in the ASGI server.

Interface (stable; later additions only add):

Publishing: plain sync functions, from a web request or a Celery worker, AFTER the commit (they are
cheap and never raise: a lost event only means a board falls back to its poll):

    publish_match(match_id, revision)       # "match <id> is now at revision N": nothing else, ever
    publish_user(user_id, kind, **data)     # kind: USER_KINDS ("bell", "turns", "lobby", "close", ...)
                                            # "close": no data = all the user's streams (a ban);
                                            # session=<live.hooks.session_tag> = that session's;
                                            # any other key (token=...) = only streams that know it
    publish_lobby()                         # the lobby's open seats changed (every /live/me/ hears it)

Events carry revisions, kinds, counts and ids only, never a board or a message: the receiver reads
what it may see itself (the board GETs its own fragment), so no event can leak hidden information.

Listening (async, in the server's event loop):

    async with listen([match_channel(7), user_channel(3)]) as subscription:
        message = await subscription.get(timeout=15.0)    # a Message, or None after `timeout`
        ...                                                # message.channel, .kind, .data (a dict)

    subscription = await subscribe(channels)    # the same without a block (an async generator's
    try: ... finally: subscription.close()      # `finally` can run where no await is allowed)

A Message of kind RESYNC means events may have been lost (the subscriber fell behind, or Redis was
away): re-read the current state. `subscription.overflowed` is set when its queue was full.

Backends (get_broadcaster() picks one per process, from settings.LIVE_REDIS_URL):
- RedisBroadcaster: ONE redis.asyncio pub/sub connection per server process, pattern-subscribed to
  every live channel under settings.LIVE_CHANNEL_PREFIX, dispatching each message to the in-process
  asyncio queues of the subscribers of its channel. Publishing is a sync PUBLISH. This fans out
  across many server processes and machines, and the Celery worker's publishes arrive like any other.
  One pattern for everything (instead of SUBSCRIBE per channel) has no window between "a subscriber
  arrives" and "Redis sends us its channel": a subscriber registered locally hears the next message.
- InProcessBroadcaster (no Redis: `make run`'s defaults): publishes reach only the subscribers of
  this process. The Celery worker (bots, timeouts) is another process, so the server also runs a
  watcher (live.watcher) that reads the revisions of the watched matches once a second in one query
  and publishes the changes it sees, and the unread/turn counts of the watched users likewise.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

from django.conf import settings

from live.channels import (  # noqa: F401 (re-exported: the interface above names them here)
    LOBBY_CHANNEL,
    MATCH,
    RESYNC,
    REVISION,
    USER,
    USER_KINDS,
    Message,
    match_channel,
    user_channel,
)

log = logging.getLogger(__name__)
QUEUE_SIZE = 256  # a subscriber this far behind is told to RESYNC instead


class Subscription:
    """One listener's queue, fed from any thread through its event loop."""

    def __init__(self, channels: Iterable[str], loop: asyncio.AbstractEventLoop) -> None:
        self.channels = frozenset(channels)
        self.loop = loop
        self.queue: asyncio.Queue[Message] = asyncio.Queue(QUEUE_SIZE)
        self.overflowed = False

    def deliver_threadsafe(self, message: Message) -> None:
        try:
            self.loop.call_soon_threadsafe(self._deliver, message)
        except RuntimeError:  # its loop is closed: the listener is gone
            pass

    def _deliver(self, message: Message) -> None:
        if self.queue.full():
            # Events are "something changed, re-read": one RESYNC says as much as the ones dropped.
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            message = Message(message.channel, RESYNC)
        self.queue.put_nowait(message)

    def close(self) -> None:
        """Stop hearing (sync, so that a generator's `finally` can call it even while being closed)."""
        get_broadcaster().remove(self)

    async def get(self, timeout: float | None = None) -> Message | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class Broadcaster:
    """The local half both backends share: subscribers by channel, and dispatch to them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # publish runs in sync threads, subscribe in the loop
        self._by_channel: dict[str, set[Subscription]] = {}

    def add(self, subscription: Subscription) -> None:
        with self._lock:
            for channel in subscription.channels:
                self._by_channel.setdefault(channel, set()).add(subscription)

    def remove(self, subscription: Subscription) -> None:
        with self._lock:
            for channel in subscription.channels:
                subscribers = self._by_channel.get(channel)
                if subscribers is not None:
                    subscribers.discard(subscription)
                    if not subscribers:
                        del self._by_channel[channel]

    def dispatch(self, message: Message) -> None:
        """Hand `message` to this process's subscribers of its channel (any thread)."""
        with self._lock:
            subscribers = list(self._by_channel.get(message.channel, ()))
        for subscription in subscribers:
            subscription.deliver_threadsafe(message)

    def dispatch_everyone(self, message_kind: str) -> None:
        with self._lock:
            pairs = [(channel, sub) for channel, subs in self._by_channel.items() for sub in subs]
        for channel, subscription in pairs:
            subscription.deliver_threadsafe(Message(channel, message_kind))

    def watched(self, kind: str) -> list[int]:
        """The ids of `kind` ("match" or "user") that this process has subscribers for."""
        with self._lock:
            channels = list(self._by_channel)
        return [int(c.split(":", 1)[1]) for c in channels if c.startswith(kind + ":")]

    def subscriber_count(self) -> int:
        with self._lock:
            return len({sub for subs in self._by_channel.values() for sub in subs})

    def send(self, message: Message) -> None:
        raise NotImplementedError

    async def start(self) -> None:
        """Make sure the process's reader (Redis) or watcher (in-process) runs in this loop."""


class InProcessBroadcaster(Broadcaster):
    """No Redis: publishes reach this process's subscribers (see live.watcher for the worker's)."""

    def __init__(self) -> None:
        super().__init__()
        self._watcher: asyncio.Task | None = None

    def send(self, message: Message) -> None:
        self.dispatch(message)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._watcher is None or self._watcher.done() or self._watcher.get_loop() is not loop:
            from live.watcher import watch

            self._watcher = loop.create_task(watch(self))


class RedisBroadcaster(Broadcaster):
    """One pattern subscription per process on Redis; sync PUBLISH for the senders."""

    RETRY_S = 1.0
    CONNECT_WAIT_S = 5.0  # how long a new listener waits for the process's pub/sub connection

    def __init__(self, url: str, prefix: str) -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self.reader_name = "dizzysite-live-" + "".join(c if c.isalnum() else "-" for c in prefix).strip("-")
        self._sync_client: Any = None
        self._reader: asyncio.Task | None = None
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        self.connected = asyncio.Event()  # set while the reader is subscribed (tests wait on it)

    PUBLISH_POOL_SIZE = 20
    POOL_WAIT_S = 2.0

    def sync_client(self) -> Any:
        """The process's sync client (thread-safe: a connection pool), for publishing."""
        if self._sync_client is None:
            import redis

            # A bounded pool that waits for a free connection (up to POOL_WAIT_S) instead of raising
            # "Too many connections" when many requests publish at once.
            pool = redis.BlockingConnectionPool.from_url(
                self.url,
                max_connections=self.PUBLISH_POOL_SIZE,
                timeout=self.POOL_WAIT_S,
                socket_timeout=2,
                socket_connect_timeout=2,
            )
            self._sync_client = redis.Redis(connection_pool=pool)
        return self._sync_client

    def send(self, message: Message) -> None:
        self.sync_client().publish(self.prefix + message.channel, message.encode())

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._reader is None or self._reader.done() or self._reader_loop is not loop:
            self.connected = asyncio.Event()
            self._reader_loop = loop
            self._reader = loop.create_task(self._read_forever())
        await asyncio.wait_for(self.connected.wait(), self.CONNECT_WAIT_S)

    async def _read_forever(self) -> None:
        import redis.asyncio as aioredis

        first = True
        while True:
            # Keepalives and health checks: a connection dropped silently (a NAT, a failover) is
            # noticed and made again, instead of a process that hears nothing from then on.
            client = aioredis.Redis.from_url(
                self.url, socket_keepalive=True, health_check_interval=15, client_name=self.reader_name
            )
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.psubscribe(self.prefix + "*")
                    self.connected.set()
                    if not first:  # what was published while we were away is lost: everyone re-reads
                        self.dispatch_everyone(RESYNC)
                    first = False
                    await self._pump(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: Redis pub/sub lost; retrying in %s s", self.RETRY_S, exc_info=True)
                self.connected.clear()
            finally:
                await client.aclose()
            await asyncio.sleep(self.RETRY_S)

    async def _pump(self, pubsub: Any) -> None:
        while True:
            # A bounded wait, not listen(): each call lets redis-py ping a quiet connection.
            raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
            if raw is None or raw.get("type") != "pmessage":
                continue
            channel = raw["channel"].decode() if isinstance(raw["channel"], bytes) else raw["channel"]
            try:
                message = Message.decode(raw["data"])
            except (ValueError, KeyError, TypeError):
                log.warning("live: unreadable message on %s", channel)
                continue
            if channel == self.prefix + message.channel:
                self.dispatch(message)


_broadcaster: Broadcaster | None = None
_broadcaster_lock = threading.Lock()


def get_broadcaster() -> Broadcaster:
    """This process's broadcaster: Redis when settings.LIVE_REDIS_URL is set, else in-process."""
    global _broadcaster
    with _broadcaster_lock:
        if _broadcaster is None:
            url = getattr(settings, "LIVE_REDIS_URL", "")
            prefix = getattr(settings, "LIVE_CHANNEL_PREFIX", "live:")
            _broadcaster = RedisBroadcaster(url, prefix) if url else InProcessBroadcaster()
        return _broadcaster


def reset_broadcaster() -> None:
    """Forget this process's broadcaster (tests that change the settings)."""
    global _broadcaster
    with _broadcaster_lock:
        _broadcaster = None


def _send(message: Message) -> None:
    try:
        get_broadcaster().send(message)
    except Exception:  # a move must never fail for its event: the boards' polls still see it
        log.warning("live: could not publish %s", message, exc_info=True)


def publish_match(match_id: int, revision: int) -> None:
    """Match `match_id` is now at `revision` (call after the commit that made it)."""
    _send(Message(match_channel(match_id), REVISION, {"revision": int(revision)}))


def publish_user(user_id: int, kind: str, **data: int | str) -> None:
    """Something of `kind` (USER_KINDS) changed for user `user_id`; `data`: ids or counts only."""
    _send(Message(user_channel(user_id), kind, dict(data)))


def publish_lobby() -> None:
    """The lobby's open matches changed."""
    _send(Message(LOBBY_CHANNEL, "lobby"))


async def subscribe(channels: Iterable[str]) -> Subscription:
    """A subscription to `channels` from now on; call its close() when done (or use listen())."""
    broadcaster = get_broadcaster()
    await broadcaster.start()
    subscription = Subscription(channels, asyncio.get_running_loop())
    broadcaster.add(subscription)
    return subscription


@asynccontextmanager
async def listen(channels: Iterable[str]) -> AsyncIterator[Subscription]:
    """Subscribe to `channels` for the block (see the module's docstring)."""
    subscription = await subscribe(channels)
    try:
        yield subscription
    finally:
        subscription.close()
