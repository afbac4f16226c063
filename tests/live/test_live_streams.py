"""The live streams' views (live/views.py) through Django's async test client, in-process broadcaster.

Each test runs its coroutine with asgiref's async_to_sync, so the async ORM's queries run in the test's
own thread and see its transaction."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from live import broadcast, limits
from live.broadcast import publish_lobby, publish_match, publish_user
from live.hooks import session_tag
from tests.helpers import start_match
from tests.live_surfaces import Reader


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.LIVE_REDIS_URL = ""
    settings.LIVE_HEARTBEAT_SECONDS = 0.3
    broadcast.reset_broadcaster()
    limits._local.clear()
    yield
    broadcast.reset_broadcaster()
    limits._local.clear()


async def signed_in(user) -> AsyncClient:
    client = AsyncClient()
    await client.aforce_login(user)
    return client


def run(coroutine) -> None:
    async def main() -> None:
        await coroutine

    async_to_sync(main)()


@pytest.mark.django_db
def test_refused_without_a_session_or_a_match(alice, bob):
    match = start_match(alice, [bob])

    async def check() -> None:
        assert (await AsyncClient().get(f"/live/match/{match.pk}/")).status_code == 403
        assert (await AsyncClient().get("/live/me/")).status_code == 403
        assert (await (await signed_in(alice)).get(f"/live/match/{match.pk + 999}/")).status_code == 404
        assert (await (await signed_in(alice)).post(f"/live/match/{match.pk}/")).status_code == 405

    run(check())


@pytest.mark.django_db
def test_under_wsgi_a_stream_is_refused_with_204(alice, bob, client_for):
    """WSGI would read the endless stream to its end before sending anything: 204 stops an EventSource."""
    match = start_match(alice, [bob])
    assert client_for(bob).get(f"/live/match/{match.pk}/").status_code == 204
    assert client_for(bob).get("/live/me/").status_code == 204


@pytest.mark.django_db
def test_a_board_hears_each_revision_once_and_only_revisions(alice, bob, carol):
    match = start_match(alice, [bob])

    async def check() -> None:
        for user in (bob, carol):  # a seat's player and a spectator hear the same
            reader = Reader(await (await signed_in(user)).get(f"/live/match/{match.pk}/"))
            assert await reader.next_event() == {
                "event": "revision",
                "id": str(match.revision),
                "data": {"revision": match.revision},
            }
            publish_match(match.pk, match.revision + 1)
            publish_match(match.pk, match.revision + 1)  # the same revision again: not sent twice
            publish_match(match.pk, match.revision)  # an older one: not sent
            publish_match(match.pk + 1, 99)  # another match's
            nxt = match.revision + 1
            assert await reader.next_event() == {"event": "revision", "id": str(nxt), "data": {"revision": nxt}}
            assert await reader.nothing_for(0.5)
            await reader.close()

    run(check())


@pytest.mark.django_db
def test_reconnect_with_last_event_id_gets_only_what_it_missed(alice, bob):
    match = start_match(alice, [bob])
    current = match.revision

    async def check() -> None:
        client = await signed_in(bob)
        up_to_date = Reader(await client.get(f"/live/match/{match.pk}/", headers={"Last-Event-ID": str(current)}))
        assert await up_to_date.nothing_for(0.5)
        await up_to_date.close()
        behind = Reader(await client.get(f"/live/match/{match.pk}/", headers={"Last-Event-ID": str(current - 1)}))
        assert (await behind.next_event())["data"] == {"revision": current}
        await behind.close()
        by_query = Reader(await client.get(f"/live/match/{match.pk}/?since={current - 1}"))
        assert (await by_query.next_event())["id"] == str(current)
        await by_query.close()

    run(check())


@pytest.mark.django_db
def test_per_user_cap(alice, bob, settings):
    settings.LIVE_MAX_STREAMS_PER_USER = 2
    match = start_match(alice, [bob])

    async def check() -> None:
        client = await signed_in(bob)
        first = Reader(await client.get(f"/live/match/{match.pk}/"))
        second = Reader(await client.get("/live/me/"))
        refused = await client.get(f"/live/match/{match.pk}/")
        assert refused.status_code == 429
        assert refused["Retry-After"]
        other = Reader(await (await signed_in(alice)).get(f"/live/match/{match.pk}/"))  # her own cap
        await other.close()
        await first.next_event()
        await first.close()  # its slot is given back
        third = Reader(await client.get(f"/live/match/{match.pk}/"))
        await third.close()
        await second.close()

    run(check())


@pytest.mark.django_db
def test_logout_closes_that_sessions_streams_only(alice, bob):
    match = start_match(alice, [bob])

    async def check() -> None:
        leaving, staying = await signed_in(bob), await signed_in(bob)
        gone = Reader(await leaving.get(f"/live/match/{match.pk}/"))
        kept = Reader(await staying.get(f"/live/match/{match.pk}/"))
        await gone.next_event()
        await kept.next_event()
        key = leaving.cookies["sessionid"].value
        await leaving.post("/accounts/logout/")
        assert await gone.next_event() == {"event": "close", "id": None, "data": {}}
        assert await gone.next_event() is None  # the stream ended
        assert await kept.nothing_for(0.8)  # heartbeats only: its session is alive
        publish_user(bob.pk, "close", session=session_tag(key))  # a repeat of the same: still not ours
        assert await kept.nothing_for(0.5)
        await kept.close()

    run(check())


@pytest.mark.django_db
def test_a_banned_users_stream_closes_at_the_next_heartbeat(alice, bob):
    """Made inactive by a plain update (no signal, no event): the heartbeat's check still ends it."""
    from accounts.models import User

    match = start_match(alice, [bob])

    async def check() -> None:
        reader = Reader(await (await signed_in(bob)).get(f"/live/match/{match.pk}/"))
        await reader.next_event()
        await User.objects.filter(pk=bob.pk).aupdate(is_active=False)
        assert (await reader.next_event(timeout=2.0))["event"] == "close"
        assert await reader.next_event() is None

    run(check())


@pytest.mark.django_db
def test_me_stream_sends_counts_then_changes(alice, bob):
    from notifications.models import Kind, Notification

    match = start_match(alice, [bob])
    to_act = match.seats.get(to_act=True).user

    async def check() -> None:
        reader = Reader(await (await signed_in(to_act)).get("/live/me/"))
        assert await reader.next_event() == {"event": "turns", "id": None, "data": {"count": 1}}
        unread = await Notification.objects.filter(recipient=to_act, read_at__isnull=True).acount()
        assert await reader.next_event() == {"event": "bell", "id": None, "data": {"unread": unread}}
        publish_user(to_act.pk, "turns")  # the count did not change: nothing sent
        assert await reader.nothing_for(0.2)
        await sync_to_async(Notification.objects.create)(kind=Kind.CHAT, match=match, recipient=to_act, turn=1)
        publish_user(to_act.pk, "bell")
        assert await reader.next_event() == {"event": "bell", "id": None, "data": {"unread": unread + 1}}
        publish_lobby()
        assert await reader.next_event() == {"event": "lobby", "id": None, "data": {}}
        await reader.close()

    run(check())


@pytest.mark.django_db
def test_close_events_end_at_once_a_sessions_or_all_streams(alice, bob, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 30  # nothing here waits for a heartbeat
    match = start_match(alice, [bob])

    async def check() -> None:
        one, two = await signed_in(bob), await signed_in(bob)
        first = Reader(await one.get(f"/live/match/{match.pk}/"))
        second = Reader(await two.get("/live/me/"))
        third = Reader(await two.get(f"/live/match/{match.pk}/"))
        await first.next_event()
        await third.next_event()
        for _ in range(2):
            await second.next_event()
        publish_user(bob.pk, "close", session=session_tag(one.cookies["sessionid"].value))  # a logout
        assert (await first.next_event())["event"] == "close"
        assert await first.next_event() is None
        assert await second.nothing_for(0.3)
        publish_user(bob.pk, "close", token="a1b2")  # an API token revoked: not a session's stream
        assert await second.nothing_for(0.3)
        publish_user(bob.pk, "close")  # a ban: every stream of theirs
        for reader in (second, third):
            assert (await reader.next_event())["event"] == "close"
            assert await reader.next_event() is None

    run(check())


@pytest.mark.django_db
def test_without_its_redis_a_stream_is_refused_with_503(alice, bob, settings, monkeypatch):
    """The page then keeps its interval poll: an EventSource does not retry after a 503."""
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    broadcast.reset_broadcaster()
    monkeypatch.setattr(broadcast.RedisBroadcaster, "CONNECT_WAIT_S", 0.5)
    match = start_match(alice, [bob])

    async def check() -> None:
        response = await (await signed_in(bob)).get(f"/live/match/{match.pk}/")
        assert response.status_code == 503

    run(check())


@pytest.mark.django_db
def test_a_client_gone_gives_its_slot_back(alice, bob, settings):
    """Django's ASGI handler cancels a stream whose client went away and does not close the response:
    the slot must come back all the same, or a few reloads of a board would reach the cap."""
    settings.LIVE_MAX_STREAMS_PER_USER = 1
    match = start_match(alice, [bob])

    async def check() -> None:
        client = await signed_in(bob)
        for _ in range(3):
            reader = Reader(await client.get(f"/live/match/{match.pk}/"))
            await reader.next_event()
            reader.pump.cancel()  # the disconnect: the stream is cancelled, close() never called
            with contextlib.suppress(asyncio.CancelledError):
                await reader.pump
            await reader.chunks.aclose()
        assert limits._local == {}

    run(check())


@pytest.mark.django_db
def test_the_heartbeats_of_many_streams_share_two_queries(alice, bob, client_for, django_assert_num_queries):
    """Streams whose heartbeats come together are done together: one query for their sessions, one
    for their users, whatever their number (each stream's own two cost an idle stream over 5% of a
    poll), and their slots renewed and their players marked at their boards, the allowed ones only."""
    from games.presence import is_watching
    from live import limits, views

    key_a, key_b = (client_for(user).cookies["sessionid"].value for user in (alice, bob))
    type(bob).objects.filter(pk=bob.pk).update(is_active=False)  # banned
    streams = [views.Stream(alice.pk, key_a, f"a{n}") for n in range(3)]
    streams += [views.Stream(bob.pk, key_b, "b"), views.Stream(alice.pk, "logged-out", "gone")]
    for number, stream in enumerate(streams):
        stream.watching = [9000 + number]

    async def beat_all() -> list[bool]:
        heartbeats = views.Heartbeats()
        return await asyncio.gather(*(heartbeats.beat(stream) for stream in streams))

    with django_assert_num_queries(2):
        answers = async_to_sync(beat_all)()
    assert answers == [True, True, True, False, False]
    assert [is_watching(stream.watching[0], stream.user_id) for stream in streams] == answers
    assert set(limits._local[alice.pk]) == {"a0", "a1", "a2"}
    assert bob.pk not in limits._local


@pytest.mark.django_db
def test_an_open_board_stream_marks_its_player_as_at_the_board_and_keeps_the_mark(alice, bob):
    """No "your turn" is written for a board its player has open (notifications.listeners): the
    board's stream marks them at once and at each heartbeat, longer than a mark lasts."""
    from django.core.cache import cache

    from games.presence import _key, is_watching

    match = start_match(alice, [bob])

    async def check() -> None:
        assert not await sync_to_async(is_watching)(match.pk, bob.pk)
        reader = Reader(await (await signed_in(bob)).get(f"/live/match/{match.pk}/"))
        assert (await reader.next_event())["event"] == "revision"
        assert await sync_to_async(is_watching)(match.pk, bob.pk)
        await sync_to_async(cache.delete)(_key(match.pk, bob.pk))  # as if the mark ran out
        assert await reader.nothing_for(1.5)  # heartbeats (every 0.3 s here, checked in batches) pass
        assert await sync_to_async(is_watching)(match.pk, bob.pk)
        assert not await sync_to_async(is_watching)(match.pk, alice.pk)
        await reader.close()

    run(check())


@pytest.mark.django_db
def test_one_browser_stream_carries_the_users_counts_and_every_board_it_shows(alice, bob, carol):
    first = start_match(alice, [bob])
    second = start_match(alice, [carol])
    other = start_match(bob, [carol])  # not shown in this browser

    async def check() -> None:
        client = await signed_in(alice)
        boards = f"{first.pk}:{first.revision - 1},{second.pk}:{second.revision},junk,:4,{first.pk + 9999}:1"
        reader = Reader(await client.get(f"/live/?boards={boards}"))
        assert (await reader.next_event())["event"] == "turns"
        assert (await reader.next_event())["event"] == "bell"
        # The board the browser has an older revision of hears the current one; the other nothing yet.
        assert await reader.next_event() == {
            "event": "revision",
            "id": None,
            "data": {"match": first.pk, "revision": first.revision},
        }
        publish_match(other.pk, other.revision + 1)  # another match: not this browser's
        publish_match(second.pk, second.revision)  # not newer than what the browser has
        publish_match(second.pk, second.revision + 1)
        assert (await reader.next_event())["data"] == {"match": second.pk, "revision": second.revision + 1}
        publish_lobby()
        assert (await reader.next_event())["event"] == "lobby"
        reader.pump.cancel()

    run(check())


@pytest.mark.django_db
def test_the_browser_stream_is_refused_as_the_others(alice, client_for):
    async def check() -> None:
        assert (await AsyncClient().get("/live/?boards=1:1")).status_code == 403
        assert (await (await signed_in(alice)).post("/live/")).status_code == 405

    run(check())
    assert client_for(alice).get("/live/").status_code == 204  # WSGI: the page polls
