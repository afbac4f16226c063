"""The API's streams: GET stream/match/{id} and GET stream/event (NDJSON), their auth and
scope, heartbeats, the end of a revoked token's or a logged-out session's stream, the long poll on
the live channel, and that no line says more than kinds, ids, revisions and counts.

In-process broadcaster, Django's AsyncClient: each test runs its scenario with async_to_sync, so the
views' database work (sync_to_async) shares the test's transaction. tests/integration/
test_api_streams_live.py does the same over a real uvicorn and Redis."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from api.models import ApiToken
from games import actions
from games.models import Match
from live import broadcast
from moderation.actions import post_chat
from tests.api_helpers import token
from tests.helpers import first_legal, start_match, user_to_act

pytestmark = pytest.mark.django_db

ALLOWED_KEYS = {"type", "match", "revision", "unread"}
ALLOWED_TYPES = {"revision", "turn", "invited", "started", "finished", "cancelled", "chat", "inbox"}


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.LIVE_REDIS_URL = ""
    settings.LIVE_HEARTBEAT_SECONDS = 0.3
    broadcast.reset_broadcaster()
    yield
    broadcast.reset_broadcaster()


class Lines:
    """A streaming response read line by line, with a timeout."""

    def __init__(self, response) -> None:
        self.response = response
        self.content = response.streaming_content
        self.buffer = b""
        self.seen: list[dict] = []

    async def next(self, timeout: float = 3.0) -> dict | None:
        """The next JSON line ({} for a heartbeat), or None at the end of the stream."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            try:
                self.buffer += await asyncio.wait_for(anext(self.content), deadline - time.monotonic())
            except StopAsyncIteration:
                return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        item = json.loads(line) if line else {}
        if item:
            self.seen.append(item)
        return item

    async def event(self, timeout: float = 3.0) -> dict | None:
        """The next line that is not a heartbeat (None at the end)."""
        deadline = time.monotonic() + timeout
        while True:
            item = await self.next(deadline - time.monotonic())
            if item != {}:
                return item

    async def close(self) -> None:
        """The client goes away as the ASGI handler sees it: the stream's task is cancelled while
        it waits (a test client's aclose() would leave the view's generator suspended)."""
        waiting = asyncio.ensure_future(anext(self.content))
        await asyncio.sleep(0.05)
        waiting.cancel()
        try:
            await waiting
        except (asyncio.CancelledError, StopAsyncIteration):
            pass


class bearer:  # noqa: N801 - reads like AsyncClient
    """An AsyncClient sending a token (headers given per request: AsyncClient(headers=...) would send
    them under HTTP_-prefixed names)."""

    def __init__(self, raw: str) -> None:
        self.client = AsyncClient()
        self.headers = {"Authorization": f"Bearer {raw}"}

    async def get(self, path: str):
        return await self.client.get(path, headers=self.headers)


async def open_lines(client: AsyncClient | bearer, path: str) -> Lines:
    response = await client.get(path)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/x-ndjson"
    assert response["X-Accel-Buffering"] == "no"
    return Lines(response)


def audit(lines: list[dict]) -> None:
    """Nothing but kinds, ids, revisions and counts."""
    for line in lines:
        assert set(line) <= ALLOWED_KEYS and line["type"] in ALLOWED_TYPES, line
        assert all(isinstance(value, int) for key, value in line.items() if key != "type"), line


def play(match: Match) -> Match:
    seat = user_to_act(match)
    return actions.do_move(match.pk, seat.user, match.version, first_legal(match, seat.number))


def play_until_turn_of(match: Match, user) -> Match:
    """Moves until it is `user`'s turn (a Solitaire Chess turn may take more than one move)."""
    for _ in range(20):
        if user_to_act(match).user == user:
            return match
        match = play(match)
    raise AssertionError("the turn never came")


# --- auth and scope ---------------------------------------------------------------------------------


def test_streams_need_a_read_token_or_a_session(alice, bob):
    match = start_match(alice, [bob])
    write_only, bobs = token(alice, ["play"]), bearer(token(bob))

    async def scenario() -> None:
        for path in (f"/api/v1/stream/match/{match.pk}", "/api/v1/stream/event"):
            answer = await AsyncClient().get(path)
            assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Bearer"
            assert (await bearer("dzy_forged").get(path)).status_code == 401
            refused = await bearer(write_only).get(path)
            assert refused.status_code == 403 and "read" in refused.json()["detail"]
        assert (await bobs.get("/api/v1/stream/match/999999")).status_code == 404

    async_to_sync(scenario)()


def test_a_session_opens_a_stream(alice, bob, carol):
    match = start_match(alice, [bob])
    client = AsyncClient()
    client.force_login(carol)  # a spectator: revisions are public

    async def scenario() -> None:
        lines = await open_lines(client, f"/api/v1/stream/match/{match.pk}")
        assert await lines.event() == {"type": "revision", "match": match.pk, "revision": match.revision}
        await lines.close()

    async_to_sync(scenario)()


def test_the_cap_on_open_streams_is_a_429(alice, bob, settings):
    settings.LIVE_MAX_STREAMS_PER_USER = 2
    match = start_match(alice, [bob])
    client = bearer(token(alice))

    async def scenario() -> None:
        opened = [await open_lines(client, f"/api/v1/stream/match/{match.pk}") for _ in range(2)]
        for lines in opened:
            await lines.event()  # its body runs: the stream counts
        refused = await client.get("/api/v1/stream/event")
        assert refused.status_code == 429 and "2 open streams" in refused.json()["detail"]
        await opened[0].close()
        again = await open_lines(client, "/api/v1/stream/event")
        await again.close()
        await opened[1].close()

    async_to_sync(scenario)()


# --- the match stream --------------------------------------------------------------------------------


def test_a_match_stream_says_each_new_revision_once_then_heartbeats(alice, bob):
    match = start_match(alice, [bob])
    client = bearer(token(bob))

    async def scenario() -> None:
        lines = await open_lines(client, f"/api/v1/stream/match/{match.pk}")
        assert await lines.event() == {"type": "revision", "match": match.pk, "revision": match.revision}
        moved = await sync_to_async(play)(match)
        await sync_to_async(broadcast.publish_match)(match.pk, moved.revision)
        await sync_to_async(broadcast.publish_match)(match.pk, moved.revision)  # twice: said once
        assert await lines.event() == {"type": "revision", "match": match.pk, "revision": moved.revision}
        assert await lines.next() == {}  # the heartbeat, and no second line for the same revision
        await lines.close()
        audit(lines.seen)

    async_to_sync(scenario)()


def test_since_sends_only_what_was_missed_and_a_heartbeat_finds_a_lost_event(alice, bob):
    match = start_match(alice, [bob])
    client = bearer(token(alice))

    async def scenario() -> None:
        lines = await open_lines(client, f"/api/v1/stream/match/{match.pk}?since={match.revision}")
        assert await lines.next() == {}  # nothing missed: the first line is a heartbeat
        moved = await sync_to_async(play)(match)  # no publish at all (the test's transaction): lost
        assert await lines.event() == {"type": "revision", "match": match.pk, "revision": moved.revision}
        await lines.close()
        behind = await open_lines(client, f"/api/v1/stream/match/{match.pk}?since={match.revision}")
        assert await behind.event(timeout=0.2) == {"type": "revision", "match": match.pk, "revision": moved.revision}
        await behind.close()

    async_to_sync(scenario)()


# --- the end of a stream ------------------------------------------------------------------------------


def test_a_revoked_tokens_stream_ends_at_once(alice, bob, django_capture_on_commit_callbacks):
    match = start_match(alice, [bob])
    raw = token(alice)
    other = bearer(token(alice, name="other"))

    async def scenario() -> None:
        lines = await open_lines(bearer(raw), f"/api/v1/stream/match/{match.pk}")
        kept = await open_lines(other, "/api/v1/stream/event")
        await lines.event()

        def revoke() -> None:
            with django_capture_on_commit_callbacks(execute=True):
                ApiToken.objects.get(name="test").revoke()

        await sync_to_async(revoke)()
        started = time.monotonic()
        while await lines.next(timeout=0.25) is not None:
            pass
        assert time.monotonic() - started < 0.25  # the "close" event, not the heartbeat's check
        assert await kept.next(timeout=1) is not None  # the other token's stream goes on
        await kept.close()

    async_to_sync(scenario)()


def test_a_heartbeat_ends_the_stream_of_a_revoked_token_or_a_banned_user(alice, bob):
    match = start_match(alice, [bob])
    raw = token(alice)

    async def scenario() -> None:
        lines = await open_lines(bearer(raw), f"/api/v1/stream/match/{match.pk}")
        await lines.event()
        await sync_to_async(ApiToken.objects.update)(revoked="2026-01-01T00:00:00Z")  # no event
        while await lines.next(timeout=2) is not None:
            pass
        session = AsyncClient()
        await sync_to_async(session.force_login)(bob)
        by_session = await open_lines(session, "/api/v1/stream/event")
        await sync_to_async(type(bob).objects.filter(pk=bob.pk).update)(is_active=False)  # no event
        while await by_session.next(timeout=2) is not None:
            pass

    async_to_sync(scenario)()


def test_logging_out_ends_that_sessions_stream(alice, bob, django_capture_on_commit_callbacks):
    match = start_match(alice, [bob])
    client = AsyncClient()
    client.force_login(alice)

    async def scenario() -> None:
        lines = await open_lines(client, f"/api/v1/stream/match/{match.pk}")
        await lines.event()

        def log_out() -> None:
            with django_capture_on_commit_callbacks(execute=True):
                from django.test import Client

                sync = Client()
                sync.cookies = client.cookies
                assert sync.post("/accounts/logout/").status_code in (200, 302)

        await sync_to_async(log_out)()
        started = time.monotonic()
        while await lines.next(timeout=0.25) is not None:
            pass
        assert time.monotonic() - started < 0.25

    async_to_sync(scenario)()


# --- the account stream ----------------------------------------------------------------------------------


def test_the_account_stream_tells_turns_starts_ends_invitations_chat_and_the_inbox(alice, bob, carol):
    match = start_match(alice, [bob])
    to_act = user_to_act(match).user
    waiting = bob if to_act == alice else alice
    mine_client, theirs_client = bearer(token(to_act)), bearer(token(waiting))

    async def scenario() -> None:
        mine = await open_lines(mine_client, "/api/v1/stream/event")
        theirs = await open_lines(theirs_client, "/api/v1/stream/event")
        assert await mine.event() == {"type": "turn", "match": match.pk}  # first: where it is my turn now
        assert await theirs.next() == {}  # nothing to do: a heartbeat
        await sync_to_async(play_until_turn_of)(match, waiting)
        await sync_to_async(broadcast.publish_user)(waiting.pk, "turns")
        assert await theirs.event() == {"type": "turn", "match": match.pk}
        await sync_to_async(post_chat)(match.pk, to_act, "hello")
        await sync_to_async(broadcast.publish_user)(waiting.pk, "chat", match=match.pk)
        await sync_to_async(broadcast.publish_user)(waiting.pk, "bell")
        assert await theirs.event() == {"type": "chat", "match": match.pk}
        assert (await theirs.event())["type"] == "inbox"
        invitation = await sync_to_async(start_invitation)(carol, waiting)
        await sync_to_async(broadcast.publish_user)(waiting.pk, "turns")
        assert await theirs.event() == {"type": "invited", "match": invitation.pk}
        await sync_to_async(actions.do_join)(invitation.pk, waiting)
        await sync_to_async(broadcast.publish_user)(waiting.pk, "turns")
        started = await theirs.event()
        assert started == {"type": "started", "match": invitation.pk}
        await sync_to_async(actions.do_resign)(match.pk, waiting)
        await sync_to_async(broadcast.publish_user)(waiting.pk, "turns")
        told = [await theirs.event()]  # the new match's turn may come before, or after
        while {"type": "finished", "match": match.pk} not in told:
            told.append(await theirs.event())
        await mine.close()
        await theirs.close()
        audit(mine.seen + theirs.seen)

    async_to_sync(scenario)()


def start_invitation(creator, invitee) -> Match:
    seats = [actions.SeatSpec("me"), actions.SeatSpec("invite", invitee.username)]
    return actions.create_match(creator, "solitaire-chess", seats, options={})


# --- the long poll ---------------------------------------------------------------------------------------


def test_the_long_poll_wakes_on_the_live_channel_holding_no_thread(alice, bob, settings):
    settings.DIZZY_API_LONGPOLL_SECONDS = 10
    settings.DIZZY_API_POLL_INTERVAL = 30  # no re-reading: only the event can wake it
    match = start_match(alice, [bob])
    client = bearer(token(alice))

    async def scenario() -> None:
        answer = await client.get(f"/api/v1/matches/{match.pk}/events?since={match.revision}")
        # The view has returned (its middleware's thread is free); the wait is in the body.
        assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
        body = asyncio.ensure_future(anext(answer.streaming_content))
        await asyncio.sleep(0.3)
        assert not body.done()
        moved = await sync_to_async(play)(match)  # the same thread the view's middleware ran in: free
        started = time.monotonic()
        await sync_to_async(broadcast.publish_match)(match.pk, moved.revision)
        text = await asyncio.wait_for(body, 3)
        assert time.monotonic() - started < 1
        assert json.loads(text) == {"changed": True, "revision": moved.revision, "version": 1, "status": "active"}

    async_to_sync(scenario)()


def test_a_long_poll_past_its_revision_answers_at_once_and_times_out_unchanged(alice, bob, settings):
    settings.DIZZY_API_LONGPOLL_SECONDS = 0.3
    match = start_match(alice, [bob])
    client = bearer(token(alice))

    async def scenario() -> None:
        now = await client.get(f"/api/v1/matches/{match.pk}/events?since=0")
        assert now.json() == {"changed": True, "revision": match.revision, "version": 0, "status": "active"}
        idle = await client.get(f"/api/v1/matches/{match.pk}/events?since={match.revision}")
        body = b"".join([part async for part in idle.streaming_content])
        assert json.loads(body) == {"changed": False, "revision": match.revision, "version": 0, "status": "active"}
        assert (await client.get("/api/v1/matches/999999/events?since=0")).status_code == 404

    async_to_sync(scenario)()


def test_without_the_live_channel_streams_are_503_and_the_long_poll_reads_once_a_second(alice, bob, settings):
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.DIZZY_API_LONGPOLL_SECONDS = 8
    broadcast.reset_broadcaster()
    match = start_match(alice, [bob])
    client = bearer(token(alice))

    async def scenario() -> None:
        refused = await client.get(f"/api/v1/stream/match/{match.pk}")
        assert refused.status_code == 503 and "events" in refused.json()["detail"]
        answer = await client.get(f"/api/v1/matches/{match.pk}/events?since={match.revision}")
        body = asyncio.ensure_future(anext(answer.streaming_content))
        await asyncio.sleep(0.2)
        moved = await sync_to_async(play)(match)  # no event can come: the poll finds it by reading
        text = await asyncio.wait_for(body, 8)
        assert json.loads(text)["revision"] == moved.revision

    async_to_sync(scenario)()
