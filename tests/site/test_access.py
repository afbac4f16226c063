"""Every URL against every kind of visitor: anonymous, outsider, seated player, other seat, staff.

A refused request changes nothing; nothing answers 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Match, Move
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(alice, bob, carol, make_user):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    staff = make_user("mod", is_staff=True, is_superuser=True)
    return {
        "match": match,
        "anonymous": None,
        "outsider": carol,
        "seated": mover,
        "other_seat": bob if mover == alice else alice,
        "staff": staff,
    }


def client_as(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


# (method, url, who -> expected status). Pages anyone may read answer 200 to all.
def cases(m):
    return [
        ("get", "/", {"*": 200}),
        ("get", "/games/", {"*": 200}),
        ("get", "/games/solitaire-chess/rules/", {"*": 200}),
        ("get", f"/matches/{m}/", {"*": 200}),
        ("get", f"/matches/{m}/history/", {"*": 200}),
        ("get", "/matches/999999/history/", {"*": 404}),
        ("get", "/matches/new/", {"anonymous": 302, "*": 200}),
        ("get", "/settings/", {"anonymous": 302, "*": 200}),
        ("get", "/email/preferences/", {"anonymous": 302, "*": 200}),
        ("get", "/turns/", {"*": 200}),
        ("get", "/admin/games/match/", {"staff": 200, "*": 302}),
        ("get", f"/admin/games/match/{m}/change/", {"staff": 200, "*": 302}),
        ("get", "/admin/notifications/notification/", {"staff": 200, "*": 302}),
        ("post", f"/matches/{m}/join/", {"anonymous": 302, "*": 302}),
        ("post", f"/matches/{m}/leave/", {"anonymous": 302, "*": 302}),
        ("post", f"/matches/{m}/cancel/", {"anonymous": 302, "*": 302}),
        ("post", f"/matches/{m}/seats/1/", {"anonymous": 302, "*": 302}),
        ("get", f"/matches/{m}/move/", {"*": 405}),
        ("get", f"/matches/{m}/join/", {"*": 405}),
        ("get", f"/matches/{m}/chat/", {"*": 405}),
        ("post", f"/matches/{m}/chat/", {"anonymous": 302, "*": 302}),
        ("post", "/chat/999999/report/", {"anonymous": 302, "*": 302}),
        ("post", "/players/nobody-at-all/block/", {"anonymous": 302, "*": 302}),
        ("post", "/players/nobody-at-all/unblock/", {"anonymous": 302, "*": 302}),
        ("get", "/settings/vacation/", {"*": 405}),
        ("post", "/settings/vacation/", {"anonymous": 302, "*": 302}),
        ("get", "/email/unsubscribe/forged-token/", {"*": 400}),
        ("post", "/email/unsubscribe/forged-token/", {"*": 400}),
        ("get", f"/admin/games/match/{m}/replay/", {"staff": 200, "*": 302}),
        ("get", "/admin/moderation/report/", {"staff": 200, "*": 302}),
        ("get", "/admin/moderation/moderationlog/", {"staff": 200, "*": 302}),
        # Profiles, leaderboards, replays and records (none for a running match), rematches.
        ("get", "/players/alice/", {"*": 200}),
        ("get", "/players/nobody-at-all/", {"*": 404}),
        ("get", "/leaderboards/", {"*": 200}),
        ("get", "/leaderboards/solitaire-chess/", {"*": 200}),
        ("get", "/leaderboards/solitaire-chess/?pool=bots&page=9", {"*": 200}),
        ("get", "/leaderboards/no-such-game/", {"*": 404}),
        ("get", f"/matches/{m}/replay/", {"*": 404}),
        ("get", f"/matches/{m}/record.json", {"*": 404}),
        ("get", "/matches/999999/replay/", {"*": 404}),
        ("get", f"/matches/{m}/rematch/", {"*": 405}),
        ("post", f"/matches/{m}/rematch/", {"anonymous": 302, "*": 302}),
        ("get", "/admin/ratings/rating/", {"staff": 200, "*": 302}),
        ("get", "/admin/ratings/ratingchange/", {"staff": 200, "*": 302}),
        # The API needs a token, a session is none (tests/api/test_api_access.py has the token matrix).
        ("get", "/api/v1/me", {"*": 401}),
        ("get", f"/api/v1/matches/{m}/view", {"*": 401}),
        ("post", f"/api/v1/matches/{m}/moves", {"*": 401}),
        ("get", "/api/v1/openapi.json", {"*": 200}),
        ("get", "/settings/api/", {"anonymous": 302, "*": 200}),
        ("post", "/settings/api/", {"anonymous": 302, "*": 400}),
        ("post", "/settings/api/999999/revoke/", {"anonymous": 302, "*": 404}),
        ("post", "/settings/api/calendar/", {"anonymous": 302, "*": 302}),
        ("get", "/calendar/forged-token.ics", {"*": 404}),
        # The inbox and its bell, devices for web push, the manifest and the service worker.
        ("get", "/inbox/", {"anonymous": 302, "*": 200}),
        ("get", "/inbox/bell/", {"anonymous": 204, "*": 200}),
        ("get", "/inbox/999999/", {"anonymous": 302, "*": 404}),
        ("get", "/push/key/", {"*": 200}),
        ("get", "/push/subscriptions/", {"*": 405}),
        ("post", "/push/subscriptions/", {"anonymous": 302, "*": 400}),
        ("post", "/push/subscriptions/999999/remove/", {"anonymous": 302, "*": 404}),
        ("get", "/manifest.webmanifest", {"*": 200}),
        ("get", "/sw.js", {"*": 200}),
        ("get", "/admin/push/pushsubscription/", {"staff": 200, "*": 302}),
        ("get", "/admin/push/pushdelivery/", {"staff": 200, "*": 302}),
    ]


WHO = ["anonymous", "outsider", "seated", "other_seat", "staff"]


@pytest.mark.slow
def test_every_url_for_every_visitor(world):
    match = world["match"]
    for method, url, expected in cases(match.pk):
        for who in WHO:
            response = getattr(client_as(world[who]), method)(url)
            want = expected.get(who, expected.get("*"))
            assert response.status_code == want, f"{method.upper()} {url} as {who}: {response.status_code} != {want}"
    match.refresh_from_db()
    assert match.version == 0 and match.status == Match.Status.ACTIVE  # refused lobby actions changed nothing
    from moderation.models import Block, ChatMessage

    assert not Block.objects.exists()
    # Only the two seated players' chat posts went through.
    assert set(ChatMessage.objects.values_list("author__username", flat=True)) <= {
        world["seated"].username,
        world["other_seat"].username,
    }


def test_inbox_entries_and_devices_are_their_owners_alone(world):
    """Another player's notification or device is a 404, and stays as it was."""
    from notifications.models import Notification
    from push.models import PushSubscription

    row = Notification.objects.get(kind="invited")  # to the invited player, whichever seat moves first
    owner = next(who for who in ("seated", "other_seat") if world[who] == row.recipient)
    device = PushSubscription.objects.create(
        user=row.recipient, endpoint="https://push.example.com/x", p256dh="k", auth="a", label="Phone"
    )
    for who in ("outsider", "staff", {"seated": "other_seat", "other_seat": "seated"}[owner]):
        assert client_as(world[who]).get(f"/inbox/{row.pk}/").status_code == 404, who
        for action in ("read", "delete"):
            assert client_as(world[who]).post(f"/inbox/{row.pk}/{action}/").status_code == 404, who
        assert client_as(world[who]).post(f"/push/subscriptions/{device.pk}/remove/").status_code == 404, who
    row.refresh_from_db()
    assert row.read_at is None and row.deleted_at is None and PushSubscription.objects.filter(pk=device.pk).exists()
    assert client_as(world[owner]).get(f"/inbox/{row.pk}/").status_code == 302
    row.refresh_from_db()
    assert row.read_at is None  # a GET reads nothing
    assert client_as(world[owner]).post(f"/inbox/{row.pk}/read/").status_code == 302
    row.refresh_from_db()
    assert row.read_at is not None


def test_move_endpoint_for_every_visitor(world):
    from games.engines.registry import get_engine

    match = world["match"]
    engine = get_engine(match.game)
    seat = match.seats.get(user=world["seated"]).number
    move = json.dumps(engine.legal_moves(match.state, seat)[0])
    expected = {"anonymous": 302, "outsider": 403, "other_seat": 400, "staff": 403}
    for who, status in expected.items():
        response = client_as(world[who]).post(f"/matches/{match.pk}/move/", {"version": 0, "move": move})
        assert response.status_code == status, who
    assert not Move.objects.exists()
    response = client_as(world["seated"]).post(f"/matches/{match.pk}/move/", {"version": 0, "move": move})
    assert response.status_code == 302 and Move.objects.count() == 1


def test_csrf_is_enforced_on_moves(world):
    from games.engines.registry import get_engine

    match = world["match"]
    c = Client(enforce_csrf_checks=True)
    c.force_login(world["seated"])
    seat = match.seats.get(user=world["seated"]).number
    move = json.dumps(get_engine(match.game).legal_moves(match.state, seat)[0])
    assert c.post(f"/matches/{match.pk}/move/", {"version": 0, "move": move}).status_code == 403
    assert not Move.objects.exists()


def test_pages_carry_a_strict_content_security_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    page = client.get("/").content.decode()
    assert "<script>" not in page and "https://" not in page.split("<body")[0]  # no inline or CDN script


def test_moves_for_matches_not_in_play_are_refused(alice, bob, client_for):
    from games import actions
    from games.actions import SeatSpec

    waiting = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")])
    response = client_for(alice).post(f"/matches/{waiting.pk}/move/", {"version": 0, "move": '{"type":"order"}'})
    assert response.status_code == 400 and "has not started" in response.content.decode()
    running = start_match(alice, [bob])
    mover = user_to_act(running).user
    actions.do_abort(running.pk, alice, "test")
    response = client_for(mover).post(f"/matches/{running.pk}/move/", {"version": 0, "move": '{"type":"order"}'})
    assert response.status_code == 409 and "over" in response.content.decode()
    assert not Move.objects.exists()


def test_a_player_has_a_limit_of_active_matches(alice, settings):
    from games import actions
    from games.actions import SeatSpec

    settings.DIZZY_MAX_ACTIVE_MATCHES = 2
    for _ in range(2):
        actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    with pytest.raises(actions.ActionError, match="finish some"):
        actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    assert Match.objects.count() == 2


def test_finished_match_pages_for_every_visitor(world):
    """A finished match's replay and record are public (ALL-3); only its players get a rematch."""
    from games import actions

    match = world["match"]
    actions.do_adjudicate(match.pk, [0], "test")
    for who in WHO:
        c = client_as(world[who])
        assert c.get(f"/matches/{match.pk}/replay/?at=0").status_code == 200, who
        assert c.get(f"/matches/{match.pk}/record.json").status_code == 200, who
        c.post(f"/matches/{match.pk}/rematch/")
    # The two players each set one up; anonymous, outsider and staff changed nothing.
    assert Match.objects.exclude(pk=match.pk).count() == 2
    world["seated"].profile_hidden = True
    world["seated"].save()
    profile = f"/players/{world['seated'].username}/"
    for who in WHO:
        assert client_as(world[who]).get(profile).status_code == (302 if who == "anonymous" else 200), who
