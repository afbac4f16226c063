"""The API's event streams (lichess: GET /api/stream/event and GET /api/board/game/stream/{id}).

    GET /api/v1/stream/event              my account's events (NDJSON)
    GET /api/v1/stream/match/{id}?since=N a match's revisions (NDJSON)

One JSON object a line, fed by the live channel (live/broadcast.py: Redis pub/sub, or the
in-process broadcaster), from async views under the ASGI application: an open stream holds no
thread, only a subscription. A line says what happened and where (a kind, ids, a revision, a count),
never a move, a card or a message: the client reads what it may see with the ordinary endpoints
(GET matches/{id}/view, as the board GETs its own fragment). An empty line every
LIVE_HEARTBEAT_SECONDS keeps proxies from closing an idle connection.

Authentication: a token with the `read` scope, or the browser's session. A stream ends when its
token is revoked, its session ends or its user is deactivated (banned): at once on the user's
"close" event, and checked at every heartbeat for all of this process's streams together (a few
queries a heartbeat, whatever the number of streams).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Q
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from ninja import Query, Router
from ninja.errors import HttpError
from ninja.security import SessionAuth

from api import conf
from api.auth import TokenAuth
from api.models import READ, ApiToken
from api.schemas import MAX_ID, Error
from api.shared import ERRORS, MatchId
from games.models import Match, Seat
from live import broadcast, limits
from live.db import db, outside_the_request, release_connection
from live.hooks import session_tag
from live.stopping import STOPPING, end_streams_on_stop

log = logging.getLogger(__name__)
router = Router(tags=["streams"])
NDJSON = "application/x-ndjson"
BEAT = "beat"  # the heartbeat's wake-up, delivered to each stream's subscription by Streams
CHAT = "chat"  # a user event added for the account stream: a new message in one of my matches
# A user event added for the API: a token was revoked (its own kind, so that the board's streams,
# which end on any "close" without a session, go on).
REVOKED = "revoked"


class StreamSession(SessionAuth):
    """The browser's session (the site's cookie), for the streams: a GET changes nothing, so no CSRF
    check; an inactive user is nobody."""

    def __init__(self) -> None:
        super().__init__(csrf=False)

    def authenticate(self, request: HttpRequest, key: str | None):
        user = request.user
        return user if user.is_authenticated and user.is_active else None


STREAM_AUTH = [TokenAuth(READ), StreamSession()]


def heartbeat_seconds() -> float:
    return float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))


# --- one open stream, and this process's streams --------------------------------------------------


@dataclass(eq=False)
class Stream:
    user_id: int
    token_id: int | None  # the token it was opened with; None for a session
    session_key: str | None
    match_id: int | None = None  # a match's stream
    revision: int = 0  # the newest revision it has sent (a match's stream)
    subscription: Any = None
    ended: bool = False  # set by a heartbeat's check
    missed: int = 0  # a newer revision the heartbeat's check read (a lost pub/sub message)
    account: dict[int, tuple[str, bool, bool]] = field(default_factory=dict)  # the account stream's view
    once: bool = False  # served by WSGI: what is now, then the end (a sync worker cannot hold a stream)
    slot: str | None = None  # its place under the per-user cap (live.limits)

    def wake(self, kind: str) -> None:
        if self.subscription is not None:  # None until its body has subscribed
            self.subscription.deliver_threadsafe(broadcast.Message("", kind))


def ended(streams: list[Stream]) -> set[Stream]:
    """Those whose token was revoked, whose session ended or whose user is no longer active."""
    tokens = {s.token_id for s in streams if s.token_id is not None}
    live_tokens = set(ApiToken.objects.live().filter(pk__in=tokens, user__is_active=True).values_list("pk", flat=True))
    keys = {s.session_key for s in streams if s.session_key is not None}
    sessions = Session.objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
    live_sessions = set(sessions.values_list("session_key", flat=True))
    users = {s.user_id for s in streams if s.session_key is not None}
    active = set(get_user_model().objects.filter(pk__in=users, is_active=True).values_list("pk", flat=True))
    return {
        s
        for s in streams
        if (s.token_id is not None and s.token_id not in live_tokens)
        or (s.session_key is not None and (s.session_key not in live_sessions or s.user_id not in active))
    }


def revisions_of(match_ids: set[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "revision"))


class Streams:
    """The open streams of one event loop (a server process's), and one task that every heartbeat
    checks them all at once: ends those whose token, session or user is gone, notes a newer revision
    a match's stream missed (a pub/sub message lost while Redis was away), and wakes each stream to
    send its heartbeat."""

    def __init__(self) -> None:
        self.open: set[Stream] = set()
        self.task: asyncio.Task | None = None

    def add(self, stream: Stream) -> None:
        self.open.add(stream)
        if self.task is None or self.task.done():
            # A fresh context: not the first stream's request's, which ends (and takes its thread) first.
            self.task = asyncio.get_running_loop().create_task(self.beat(), context=outside_the_request())

    def discard(self, stream: Stream) -> None:
        self.open.discard(stream)

    async def beat(self) -> None:
        while self.open:
            await asyncio.sleep(heartbeat_seconds())
            try:
                await self.check(list(self.open))
            except Exception:  # the database away for a moment: the next beat checks again
                log.warning("api streams: the heartbeat's check failed", exc_info=True)
                for stream in list(self.open):
                    stream.wake(BEAT)

    async def check(self, streams: list[Stream]) -> None:
        gone = await db(ended, streams)
        watched = {s.match_id for s in streams if s.match_id is not None and s not in gone}
        current = await db(revisions_of, watched) if watched else {}
        for stream in streams:
            stream.ended = stream in gone
            stream.missed = current.get(stream.match_id or 0, 0)
            stream.wake(BEAT)
        await limits.renew_many([(s.user_id, s.slot) for s in streams if s.slot is not None and not s.ended])


_streams: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Streams] = weakref.WeakKeyDictionary()


def streams() -> Streams:
    """This event loop's streams (the server has one loop; a test client makes one per request)."""
    loop = asyncio.get_running_loop()
    if loop not in _streams:
        _streams[loop] = Streams()
    return _streams[loop]


def closes(stream: Stream, message: broadcast.Message) -> bool | None:
    """A "close" (a logout, a ban) or a "revoked" (a token) event: True when it names this stream's
    session or token, False when it names another, None when it names none (a ban: the database
    says)."""
    if message.kind == REVOKED:
        return stream.token_id is not None and message.data.get("token") == stream.token_id
    if message.data.get("session"):
        return bool(stream.session_key) and message.data["session"] == session_tag(stream.session_key)
    return None


# --- the account stream's view: what it has told, and what changed --------------------------------


def account_now(user_id: int, known: set[int]) -> dict[int, tuple[str, bool, bool]]:
    """Per match of mine that is open or running, or that the stream knows of: (status, my turn,
    invited: a seat offered to me that I have not taken)."""
    seats = Seat.objects.filter(user_id=user_id).filter(
        Q(match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE]) | Q(match_id__in=known)
    )
    rows = seats.values_list("match_id", "match__status", "to_act", "handed_to_bot", "accepted")
    return {
        pk: (status, to_act and status == Match.Status.ACTIVE and not to_bot and accepted, not accepted)
        for pk, status, to_act, to_bot, accepted in rows
    }


def account_changes(before: dict[int, tuple[str, bool, bool]], now: dict[int, tuple[str, bool, bool]]) -> list[dict]:
    """The lines for what changed between two views (after the first: every turn and invitation)."""
    lines = []
    for pk, (status, my_turn, invited) in sorted(now.items()):
        old = before.get(pk)
        if status == Match.Status.OPEN and invited and (old is None or not old[2]):
            lines.append({"type": "invited", "match": pk})
        if status == Match.Status.ACTIVE and old is not None and old[0] == Match.Status.OPEN:
            lines.append({"type": "started", "match": pk})
        if my_turn and (old is None or not old[1]):
            lines.append({"type": "turn", "match": pk})
        if old is not None and old[0] in (Match.Status.OPEN, Match.Status.ACTIVE) and status != old[0]:
            if status in (Match.Status.FINISHED, Match.Status.ABORTED):
                lines.append({"type": "finished", "match": pk})
            elif status == Match.Status.CANCELLED:
                lines.append({"type": "cancelled", "match": pk})
    return lines


def unread_count(user_id: int) -> int:
    from notifications.models import Notification

    return Notification.objects.filter(recipient_id=user_id, read_at__isnull=True).count()  # the bell's count


async def account_lines(stream: Stream) -> list[dict]:
    now = await db(account_now, stream.user_id, set(stream.account))
    lines = account_changes(stream.account, now)
    # What the stream need not remember: matches over, and cancelled ones.
    stream.account = {pk: v for pk, v in now.items() if v[0] in (Match.Status.OPEN, Match.Status.ACTIVE)}
    return lines


# --- the responses ----------------------------------------------------------------------------------


def encoded(item: dict[str, Any]) -> bytes:
    return (json.dumps(item, separators=(",", ":")) + "\n").encode()


async def heard(stream: Stream, message: broadcast.Message) -> list[dict] | None:
    """The lines one message makes; None ends the stream."""
    if message.kind == STOPPING:  # the server is stopping: end, and let the client reconnect
        return None
    if message.kind == BEAT:
        if stream.ended:
            return None
        lines = []
        if stream.match_id is not None and stream.missed > stream.revision:
            lines.append(revision_line(stream, stream.missed))
        return [*lines, {}]  # {}: the heartbeat's empty line
    if message.kind in ("close", REVOKED):
        verdict = closes(stream, message)
        if verdict is None:
            verdict = bool(await db(ended, [stream]))
        return None if verdict else []
    if stream.match_id is not None:
        return await heard_match(stream, message)
    return await heard_account(stream, message)


def revision_line(stream: Stream, revision: int) -> dict:
    stream.revision = revision
    return {"type": "revision", "match": stream.match_id, "revision": revision}


async def heard_match(stream: Stream, message: broadcast.Message) -> list[dict]:
    if message.kind == broadcast.RESYNC:
        revision = (await db(revisions_of, {stream.match_id})).get(stream.match_id, 0)
    elif message.kind == broadcast.REVISION:
        revision = int(message.data.get("revision", 0))
    else:
        return []
    return [revision_line(stream, revision)] if revision > stream.revision else []


async def heard_account(stream: Stream, message: broadcast.Message) -> list[dict]:
    if message.kind in ("turns", broadcast.RESYNC):
        return await account_lines(stream)
    if message.kind == "bell":
        return [{"type": "inbox", "unread": await db(unread_count, stream.user_id)}]
    if message.kind == CHAT:
        return [{"type": "chat", "match": int(message.data.get("match", 0))}]
    return []  # the lobby's events are the pages'


async def body(stream: Stream, first: Callable[[Stream], Awaitable[list[dict]]]) -> AsyncIterator[bytes]:
    """The stream's lines: what `first` reads once subscribed (so no change slips between the two),
    then what it hears, until it ends or the client goes away (the ASGI handler then cancels this
    generator; the subscription ends with it)."""
    await sync_to_async(release_connection)()
    end_streams_on_stop()
    registry = streams()
    registry.add(stream)
    try:
        # The user's channel too for a match's stream: a "close" (logout, ban, revoked token) comes there.
        channels = [broadcast.user_channel(stream.user_id)]
        if stream.match_id is not None:
            channels.append(broadcast.match_channel(stream.match_id))
        async with broadcast.listen(channels) as subscription:
            stream.subscription = subscription
            for line in await first(stream):
                yield encoded(line)
            while not stream.once:
                lines = await heard(stream, await subscription.get())
                if lines is None:
                    return
                for line in lines:
                    yield encoded(line) if line else b"\n"
    finally:
        registry.discard(stream)
        if stream.slot is not None:
            limits.release(stream.user_id, stream.slot)


async def stream_for(request: HttpRequest, match_id: int | None = None) -> Stream:
    """A stream of the request's user, by its token or its session; 429 past the per-user cap
    (live.limits: the board's streams and the API's count together)."""
    token = getattr(request, "api_token", None)
    stream = Stream(
        user_id=request.auth.pk,
        token_id=token.pk if token is not None else None,
        session_key=None if token is not None else request.session.session_key,
        match_id=match_id,
        once=not isinstance(request, ASGIRequest),
    )
    if stream.once:
        log.warning("api streams: %s served by WSGI: answered with what is now; serve it with ASGI", request.path)
    try:
        await broadcast.get_broadcaster().start()  # Redis reachable (or the in-process watcher running)
        stream.slot = await limits.claim(stream.user_id)
    except Exception:
        log.warning("api streams: the live channel is away", exc_info=True)
        raise HttpError(503, "The live channel is away for a moment: use GET matches/{id}/events meanwhile.") from None
    if stream.slot is None:
        cap = settings.LIVE_MAX_STREAMS_PER_USER
        raise HttpError(429, f"At most {cap} open streams per account: close one first.")
    return stream


def respond(stream: Stream, first: Callable[[Stream], Awaitable[list[dict]]]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body(stream, first), content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


NDJSON_ANSWER = {
    "responses": {
        "200": {
            "description": "NDJSON: one JSON object a line; an empty line is a heartbeat",
            "content": {NDJSON: {"schema": {"type": "string"}}},
        }
    }
}


@router.get(
    "/stream/match/{match_id}",
    response={200: dict[str, Any], **ERRORS, 503: Error},
    auth=STREAM_AUTH,
    summary='A match\'s revisions as they happen (NDJSON), `{"type": "revision", "match": id, "revision": N}` a '
    "line: then read GET matches/{id}/view. First the current revision (with `since`: only if newer); an "
    "empty line every 15 s. A token (read) or the session; 429 past 8 open streams",
    openapi_extra=NDJSON_ANSWER,
)
async def match_stream(
    request: HttpRequest,
    match_id: MatchId,
    since: Annotated[int | None, Query(ge=0, le=MAX_ID, description="The last revision I saw")] = None,
):
    if match_id not in await db(revisions_of, {match_id}):
        raise HttpError(404, "There is no such match.")
    stream = await stream_for(request, match_id)
    stream.revision = since if since is not None else -1

    async def first(stream: Stream) -> list[dict]:
        current = (await db(revisions_of, {match_id})).get(match_id, 0)
        return [revision_line(stream, current)] if current > stream.revision else []

    return respond(stream, first)


@router.get(
    "/stream/event",
    response={200: dict[str, Any], **ERRORS, 503: Error},
    auth=STREAM_AUTH,
    summary="My account's events as they happen (NDJSON), first one line per match where it is my turn and per "
    "invitation: `turn`, `invited`, `started`, `finished`, `cancelled` (a declined or withdrawn challenge) and "
    "`chat` with a `match` id, `inbox` with my `unread` count; an empty line every 15 s",
    openapi_extra=NDJSON_ANSWER,
)
async def event_stream(request: HttpRequest):
    stream = await stream_for(request)
    return respond(stream, account_lines)


async def long_poll(
    match_id: int,
    since: int,
    deadline: float,
    read: Callable[[int], tuple[int, int, str] | None],
    answer: Callable[[tuple[int, int, str], int], dict],
) -> AsyncIterator[bytes]:
    """The long poll's body: subscribed to the match's channel, it reads the match, and again at each
    message on it (or every DIZZY_API_POLL_INTERVAL seconds, in case one was lost), until the
    revision passes `since` or the deadline comes; then the answer, as JSON. Without the live
    channel (Redis away) it reads the match once a second instead, as it did before streams."""
    await sync_to_async(release_connection)()
    try:
        subscription = await broadcast.subscribe([broadcast.match_channel(match_id)])
    except Exception:
        log.warning("api long poll: the live channel is away; reading the match once a second", exc_info=True)
        subscription = None
    try:
        while True:
            row = await db(read, match_id)
            left = deadline - time.monotonic()
            if row is None or row[0] > since or left <= 0:
                break
            if subscription is None:
                await asyncio.sleep(min(left, 1.0))
            else:
                await subscription.get(timeout=min(left, conf.get("DIZZY_API_POLL_INTERVAL")))
    finally:
        if subscription is not None:
            subscription.close()
    yield json.dumps(answer(row, since) if row else {"detail": "There is no such match."}).encode()
