"""The live streams: Server-Sent Events from async views, served by the ASGI application.

    GET /live/?boards=12:5,13:7   the one stream of a browser: its user's events (as /live/me/) and
                            "revision" events ({"match": 12, "revision": 6}) of the boards its tabs
                            show, each with the revision it has; every tab shares it (static/js/
                            live-worker.js), so a browser holds one connection however many tabs
    GET /live/match/<id>/   "revision" events (id: N, data: {"revision": N}) for a board
    GET /live/me/           the signed-in user's "turns" ({"count": n}), "bell" ({"unread": n}) and
                            "lobby" ({}) events

An event never carries a board or a message: the page GETs its own fragment (`?since=`), as its poll
does, so a stream can tell nobody anything they may not see. A reconnecting EventSource sends
Last-Event-ID (or a client `?since=N`): a board stream whose match has moved past it sends the current
revision at once; /live/me/ always starts with the current counts. A comment line every
LIVE_HEARTBEAT_SECONDS keeps proxies from closing the connection; at each heartbeat the stream checks
that its session is still there and its user still active (a "close" event on logout or a ban ends
it sooner). A user holds at most LIVE_MAX_STREAMS_PER_USER streams: one more gets 429.

An open stream holds no database connection: its request thread gives its connection back as the
answer begins, and the stream's queries run on the process's one thread for them (live.db).
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from games.presence import mark_watching_many
from live import limits
from live.broadcast import (
    LOBBY_CHANNEL,
    RESYNC,
    REVISION,
    Message,
    Subscription,
    get_broadcaster,
    match_channel,
    subscribe,
    user_channel,
)
from live.db import arelease_connection, db, outside_the_request
from live.hooks import session_tag
from live.stopping import STOPPING, end_streams_on_stop

log = logging.getLogger(__name__)
RETRY_MS = 3000  # how long a browser waits before it reconnects


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines += [f"event: {event}", "data: " + json.dumps(data, separators=(",", ":"))]
    return "\n".join(lines) + "\n\n"


def last_seen(request: HttpRequest) -> int | None:
    """The revision the client has: Last-Event-ID (an EventSource's reconnect) or ?since=."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("since") or ""
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


class Stream:
    """One open stream of a signed-in user: its slot, its session, the boards its player is at, and
    its heartbeat."""

    def __init__(self, user_id: int, session_key: str | None, token: str) -> None:
        self.user_id = user_id
        self.session_key = session_key
        self.token = token
        self.watching: list[int] = []  # the boards it shows: their player is marked as at them

    def closes(self, message: Message) -> bool:
        """A "close" for this user: every stream of theirs (a ban), or this session's (a logout)."""
        if message.channel != user_channel(self.user_id) or message.kind != "close":
            return False
        if not message.data:  # a ban or a suspension: every stream of the user
            return True
        # One session's (a logout); a close naming something else (an API token) is not ours.
        return message.data.get("session") == session_tag(self.session_key)

    async def heartbeat(self) -> str | None:
        """The heartbeat's comment, or None when the stream must end (its session or user gone)."""
        if not self.session_key or not await heartbeats().beat(self):
            return None
        return ": heartbeat\n\n"

    def release(self) -> None:
        limits.release(self.user_id, self.token)

    async def arelease(self) -> None:
        await limits.arelease(self.user_id, self.token)


def allowed_pairs(pairs: list[tuple[str, int]]) -> set[tuple[str, int]]:
    """Of these (session key, user id), those whose session is still there and whose user is active."""
    from accounts.models import User

    sessions = Session.objects.filter(session_key__in={key for key, _ in pairs}, expire_date__gt=timezone.now())
    live = set(sessions.values_list("session_key", flat=True))
    active = set(User.objects.filter(pk__in={user for _, user in pairs}, is_active=True).values_list("pk", flat=True))
    return {(key, user) for key, user in pairs if key in live and user in active}


GATHER_S = 0.5  # a heartbeat waits this long for the others of about that time


class Heartbeats:
    """The heartbeats of this event loop's streams, done together: the streams whose heartbeats come
    within GATHER_S of each other share one query for their sessions and one for their users, one
    Redis round trip that renews their slots and one that marks their players at their boards (each
    stream's own, on the one database thread, cost an idle stream more than its share of the poll it
    replaces)."""

    def __init__(self) -> None:
        self.waiting: dict[Stream, asyncio.Future[bool]] = {}
        self.task: asyncio.Task | None = None

    async def beat(self, stream: Stream) -> bool:
        """Whether the stream may go on (its session there, its user active), once renewed and marked."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self.waiting[stream] = future
        if self.task is None or self.task.done():
            # Not in the first stream's request context: its request thread is not this task's.
            self.task = loop.create_task(self.run(), context=outside_the_request())
        return await future

    async def run(self) -> None:
        while self.waiting:  # those that beat while a batch was done go in the next one
            await asyncio.sleep(GATHER_S)
            batch, self.waiting = self.waiting, {}
            try:
                allowed = await self.check(list(batch))
            except Exception as error:  # the database away: each stream's heartbeat fails, as alone
                for future in batch.values():
                    if not future.done():
                        future.set_exception(error)
                continue
            for stream, future in batch.items():
                if not future.done():  # a stream cancelled meanwhile (its client went away)
                    future.set_result(stream in allowed)

    async def check(self, streams: list[Stream]) -> set[Stream]:
        pairs = await db(allowed_pairs, [(stream.session_key, stream.user_id) for stream in streams])
        allowed = {stream for stream in streams if (stream.session_key, stream.user_id) in pairs}
        await limits.renew_many([(stream.user_id, stream.token) for stream in allowed])
        marks = [(match_id, stream.user_id) for stream in allowed for match_id in stream.watching]
        try:
            if marks:
                await db(mark_watching_many, marks)
        except Exception:  # the cache away: at worst a "your turn" email for a board that was open
            log.warning("live: could not mark the players at their boards", exc_info=True)
        return allowed


_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeats] = weakref.WeakKeyDictionary()


def heartbeats() -> Heartbeats:
    """This event loop's heartbeats (the server has one loop; a test client makes one per request)."""
    loop = asyncio.get_running_loop()
    if loop not in _heartbeats:
        _heartbeats[loop] = Heartbeats()
    return _heartbeats[loop]


class EventStreamResponse(StreamingHttpResponse):
    """An event stream that gives its slot back when it ends: at its end, a logout, or the client
    gone (Django's ASGI handler cancels the stream)."""

    def __init__(self, stream: Stream, events: AsyncIterator[str]) -> None:
        super().__init__(self.with_retry(stream, events), content_type="text/event-stream")
        self.stream = stream
        self["Cache-Control"] = "no-cache, no-store"
        self["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once

    @staticmethod
    async def with_retry(stream: Stream, events: AsyncIterator[str]) -> AsyncIterator[str]:
        try:
            # The request's thread keeps its connection for as long as the stream is open, unless
            # it gives it back now (its middleware and the view's checks are done): the stream's
            # own queries go through live.db.db(), on the process's one thread for them.
            await arelease_connection()
            yield f"retry: {RETRY_MS}\n\n"
            async for chunk in events:
                yield chunk
        finally:
            # A client that goes away cancels the stream, and Django then skips the response's
            # close(): the slot is given back here (close() does it for the other ways out).
            await stream.arelease()

    def close(self) -> None:
        try:
            self.stream.release()
        finally:
            super().close()


async def open_stream(request: HttpRequest) -> tuple[Any, Stream | None, HttpResponse | None]:
    """The signed-in user and their new stream, or the response that refuses one (204, 403, 429, 503)."""
    if not isinstance(request, ASGIRequest):
        # Under WSGI the stream would be read to its end before anything is sent, which never comes,
        # holding a worker thread: 204 tells an EventSource not to come back (the page polls).
        return None, None, HttpResponse(status=204)
    user = await request.auser()
    if not user.is_authenticated:
        return user, None, HttpResponse("Log in to follow a match live.", status=403, content_type="text/plain")
    try:
        await get_broadcaster().start()  # Redis reachable (or the in-process watcher running)
        token = await limits.claim(user.pk)
    except Exception:  # Redis away: the page keeps polling, as without JavaScript
        log.warning("live: cannot open a stream", exc_info=True)
        return user, None, HttpResponse("Live updates are down.", status=503, content_type="text/plain")
    end_streams_on_stop()
    if token is None:
        refused = HttpResponse("Too many open live streams.", status=429, content_type="text/plain")
        refused["Retry-After"] = str(settings.LIVE_HEARTBEAT_SECONDS)
        return user, None, refused
    return user, Stream(user.pk, request.session.session_key, token), None


def revision_of(match_id: int) -> int | None:
    from games.models import Match

    return Match.objects.filter(pk=match_id).values_list("revision", flat=True).first()


async def read_revision(match_id: int) -> int | None:
    return await db(revision_of, match_id)


@require_GET
async def match_stream(request: HttpRequest, match_id: int) -> HttpResponse:
    """A board's revisions. Whoever may open the board page may listen (it has no private matches)."""
    if await read_revision(match_id) is None:
        raise Http404
    user, stream, refused = await open_stream(request)
    if stream is None:
        return refused
    return EventStreamResponse(stream, match_events(stream, match_id, last_seen(request)))


async def match_events(stream: Stream, match_id: int, seen: int | None) -> AsyncIterator[str]:
    subscription = await subscribe([match_channel(match_id), user_channel(stream.user_id)])
    try:
        # The player is at this board while its stream is open: marked now and at each heartbeat (more
        # often than the mark lasts), so no "your turn" is written for a board they are watching.
        stream.watching = [match_id]
        await db(mark_watching_many, [(match_id, stream.user_id)])
        # Subscribed first, then read: a move between the two is in the queue, not lost.
        current = await read_revision(match_id)
        if current is not None and (seen is None or current > seen):
            seen = current
            yield sse(REVISION, {"revision": current}, current)
        async for item in messages(stream, subscription):
            if isinstance(item, str):
                yield item
                continue
            if item.channel != match_channel(match_id):
                continue
            revision = item.data.get("revision") if item.kind == REVISION else await read_revision(match_id)
            if isinstance(revision, int) and (seen is None or revision > seen):
                seen = revision
                yield sse(REVISION, {"revision": revision}, revision)
    finally:
        subscription.close()


CLOSE_EVENT = sse("close", {})


async def messages(stream: Stream, subscription: Subscription) -> AsyncIterator[Message | str]:
    """The subscription's messages, with the heartbeat's comment between them (a str, to send on as
    is); a "close" event, and the end, when the stream is closed or no longer allowed."""
    while True:
        message = await subscription.get(timeout=settings.LIVE_HEARTBEAT_SECONDS)
        if message is None:
            beat = await stream.heartbeat()
            yield beat if beat is not None else CLOSE_EVENT
            if beat is None:
                return
        elif stream.closes(message):
            yield CLOSE_EVENT
            return
        elif message.kind == STOPPING:  # the server is stopping: end, and let the browser reconnect
            return
        else:
            yield message


@require_GET
async def me_stream(request: HttpRequest) -> HttpResponse:
    """The signed-in user's counts and the lobby's changes, for the header and the dashboard."""
    user, stream, refused = await open_stream(request)
    if stream is None:
        return refused
    return EventStreamResponse(stream, me_events(stream))


def counted(kind: str, user_id: int) -> int:
    from games.models import Match, Seat
    from notifications.models import Notification

    if kind == "turns":  # as games.context_processors.turn_count
        waiting = Seat.objects.filter(
            user_id=user_id, to_act=True, handed_to_bot=False, match__status=Match.Status.ACTIVE
        )
        return waiting.count()
    return Notification.objects.filter(recipient_id=user_id, read_at__isnull=True).count()  # as push.views.bell


async def count_of(kind: str, user_id: int) -> int:
    return await db(counted, kind, user_id)


COUNT_NAMES = {"turns": "count", "bell": "unread"}


async def me_events(stream: Stream) -> AsyncIterator[str]:
    subscription = await subscribe([user_channel(stream.user_id), LOBBY_CHANNEL])
    try:
        sent: dict[str, int] = {}
        async for event in current_counts(stream, sent):
            yield event
        async for item in messages(stream, subscription):
            if isinstance(item, str):
                yield item
            elif item.channel == LOBBY_CHANNEL:
                yield sse("lobby", {})
            else:
                async for event in changed_counts(stream, item, sent):
                    yield event
    finally:
        subscription.close()


async def current_counts(stream: Stream, sent: dict[str, int]) -> AsyncIterator[str]:
    """The user's counts as they are now: what a reconnect missed."""
    for kind, name in COUNT_NAMES.items():
        sent[kind] = await count_of(kind, stream.user_id)
        yield sse(kind, {name: sent[kind]})


async def changed_counts(stream: Stream, message: Message, sent: dict[str, int]) -> AsyncIterator[str]:
    """The counts a user message may have changed, each sent only when it did."""
    for kind in COUNT_NAMES if message.kind == RESYNC else [message.kind]:
        if kind in COUNT_NAMES:
            count = await count_of(kind, stream.user_id)
            if count != sent[kind]:
                sent[kind] = count
                yield sse(kind, {COUNT_NAMES[kind]: count})


MAX_BOARDS = 16  # boards one browser stream follows (a tab shows one)


def watched_boards(raw: str) -> dict[int, int | None]:
    """?boards=12:5,13:7 -> {12: 5, 13: 7}: each board and the revision the browser has (None: none
    yet). Malformed parts are left out; at most MAX_BOARDS."""
    boards: dict[int, int | None] = {}
    for part in raw.split(",")[:MAX_BOARDS]:
        match_id, _, seen = part.partition(":")
        if match_id.isdigit() and len(match_id) < 10:
            boards[int(match_id)] = int(seen) if seen.isdigit() and len(seen) < 10 else None
    return boards


def revisions_of(match_ids: list[int]) -> dict[int, int]:
    from games.models import Match

    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "revision"))


@require_GET
async def browser_stream(request: HttpRequest) -> HttpResponse:
    """A browser's one stream: the user's events and its boards' revisions (see the module's top)."""
    boards = watched_boards(request.GET.get("boards", ""))
    user, stream, refused = await open_stream(request)
    if stream is None:
        return refused
    return EventStreamResponse(stream, browser_events(stream, boards))


async def browser_events(stream: Stream, boards: dict[int, int | None]) -> AsyncIterator[str]:
    channels = {match_channel(match_id): match_id for match_id in boards}
    subscription = await subscribe([user_channel(stream.user_id), LOBBY_CHANNEL, *channels])
    try:
        # Subscribed first, then read: a move between the two is in the queue, not lost.
        revisions = await db(revisions_of, list(boards))
        seen = {match_id: boards[match_id] for match_id in revisions}  # boards that exist
        stream.watching = list(seen)  # marked now and at each heartbeat, as in match_events
        await db(mark_watching_many, [(match_id, stream.user_id) for match_id in seen])
        sent: dict[str, int] = {}
        async for event in current_counts(stream, sent):
            yield event
        for match_id, current in revisions.items():
            async for event in newer_revision(seen, match_id, current):
                yield event
        async for item in messages(stream, subscription):
            if isinstance(item, str):
                yield item
            elif item.channel == LOBBY_CHANNEL:
                yield sse("lobby", {})
            elif item.channel in channels and channels[item.channel] in seen:
                match_id = channels[item.channel]
                revision = item.data.get("revision") if item.kind == REVISION else await read_revision(match_id)
                async for event in newer_revision(seen, match_id, revision):
                    yield event
            elif item.channel == user_channel(stream.user_id):
                async for event in changed_counts(stream, item, sent):
                    yield event
    finally:
        subscription.close()


async def newer_revision(seen: dict[int, int | None], match_id: int, revision: Any) -> AsyncIterator[str]:
    """A board's revision event, when it is newer than what the browser has."""
    known = seen.get(match_id)
    if isinstance(revision, int) and (known is None or revision > known):
        seen[match_id] = revision
        yield sse(REVISION, {"match": match_id, "revision": revision})
