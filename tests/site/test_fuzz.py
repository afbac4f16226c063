"""Hostile input (hypothesis): never a 500, never a change of state, always a clear 4xx."""

from __future__ import annotations

import json
from urllib.parse import quote, quote_from_bytes

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import actions
from games.models import Match, Move
from tests.helpers import start_match, user_to_act
from tests.hostile import HOSTILE

pytestmark = [pytest.mark.slow, pytest.mark.django_db]
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
move_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "place", "swap", "order", "take", "discard", "attack", "x"])},
    optional={
        "from": json_values,
        "to": json_values,
        "remove": json_values,
        "first": json_values,
        "card": json_values,
    },
)


@pytest.fixture
def running(alice, bob):
    match = start_match(alice, [bob])
    return match, user_to_act(match).user


@FUZZ
@given(
    raw=st.one_of(st.text(max_size=300), json_values.map(json.dumps), move_like.map(json.dumps)),
    version=st.one_of(st.integers(-5, 5).map(str), st.text(max_size=5)),
)
def test_hostile_moves_change_nothing(running, client_for, raw, version):
    match, mover = running
    before = Match.objects.get(pk=match.pk).state
    response = client_for(mover).post(f"/matches/{match.pk}/move/", {"version": version, "move": raw})
    # The fuzzer may find a legal move: then exactly that move is applied. Anything else is a 4xx
    # with the error shown, and the match as it was.
    applied = Move.objects.filter(match=match).count()
    assert (response.status_code, applied) == (302, 1) or 400 <= response.status_code < 500
    assert applied == 1 or '<p class="error" role="alert">' in response.content.decode()
    assert applied == 1 or Match.objects.get(pk=match.pk).state == before
    Move.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(state=before, version=0)


@FUZZ
@given(match_id=st.integers(-10, 10**12), seat=st.integers(0, 10**6))
def test_forged_ids_are_404_or_refused(running, client_for, match_id, seat):
    match, mover = running
    c = client_for(mover)
    for url in (
        f"/matches/{match_id}/",
        f"/matches/{match_id}/move/",
        f"/matches/{match_id}/join/",
        f"/matches/{match.pk}/seats/{seat}/",
    ):
        response = c.post(url, {"version": 0, "move": '{"type":"order","first":true}', "kind": "bot:random"})
        assert response.status_code < 500
    assert Match.objects.get(pk=match.pk).version in (0, 1)


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(
            [
                "game",
                "players",
                "seat_1",
                "invite_1",
                "option_ruleset",
                "option_advantage",
                "time_preset",
                "turn_minutes",
                "reserve_periods",
                "period_minutes",
                "weekend_pause",
                "option_nonsense",
            ]
        ),
        st.text(max_size=30),
        max_size=12,
    )
)
def test_hostile_create_forms_never_fail_loudly(alice, client_for, data):
    count = Match.objects.count()
    response = client_for(alice).post("/matches/new/", data)
    assert response.status_code in (200, 302, 400)
    assert Match.objects.count() == count + (response.status_code == 302)


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(["display_name", "time_zone", "your_turn", "invited", "on"]), st.text(max_size=60), max_size=5
    )
)
def test_hostile_settings_forms(alice, client_for, data):
    c = client_for(alice)
    for url in ("/settings/", "/email/preferences/", "/settings/vacation/"):
        assert c.post(url, data).status_code in (200, 302)


# --- every field of every form, every query parameter: the worst a parser can be handed ----------


def form_body(fields: dict[str, bytes]) -> bytes:
    return "&".join(f"{quote(name)}={quote_from_bytes(value)}" for name, value in fields.items()).encode()


def post_raw(c: Client, url: str, fields: dict[str, bytes], **headers):
    return c.generic("POST", url, form_body(fields), content_type="application/x-www-form-urlencoded", **headers)


@pytest.fixture
def world(alice, bob, make_user):
    """A running match (alice or bob to move), an open one with a free seat, a chat message, staff."""
    from moderation.models import ChatMessage

    running = start_match(alice, [bob])
    lobby = actions.create_match(alice, "solitaire-chess", [actions.SeatSpec("me"), actions.SeatSpec("open")])
    message = ChatMessage.objects.create(match=running, author=bob, text="hello")
    staff = make_user("mod", is_staff=True, is_superuser=True)
    return {"running": running, "lobby": lobby, "message": message, "staff": staff, "mover": user_to_act(running).user}


def forms_of(world) -> list[tuple[str, dict[str, bytes]]]:
    """Every form of the site with sane values; each field in turn gets each hostile value."""
    m, lobby, msg = world["running"].pk, world["lobby"].pk, world["message"].pk
    return [
        (f"/matches/{m}/move/", {"version": b"0", "move": b'{"type":"order","first":true}'}),
        (
            "/matches/new/?game=solitaire-chess",
            {
                "game": b"solitaire-chess",
                "players": b"2",
                "seat_1": b"bot:random",
                "invite_1": b"bob",
                "option_ruleset": b"death",
                "option_advantage": b"1",
                "time_preset": b"custom",
                "turn_minutes": b"60",
                "reserve_periods": b"2",
                "period_minutes": b"60",
                "weekend_pause": b"on",
                "spectators_read_chat": b"on",
            },
        ),
        (f"/matches/{lobby}/seats/1/", {"kind": b"invite", "username": b"bob"}),
        (f"/matches/{m}/chat/", {"text": b"hi"}),
        (f"/chat/{msg}/report/", {"reason": b"rude"}),
        ("/players/bob/block/", {"next": b"/settings/"}),
        ("/settings/", {"display_name": b"Alice", "time_zone": b"Europe/Paris"}),
        ("/settings/vacation/", {"on": b"0"}),
        ("/email/preferences/", {kind: b"digest" for kind in ("your_turn", "invited", "started", "finished")}),
        ("/accounts/login/", {"login": b"alice", "password": b"pw-alice"}),
        ("/accounts/signup/", {"username": b"x", "email": b"x@example.com", "password1": b"pw", "password2": b"pw"}),
        ("/accounts/password/reset/", {"email": b"alice@example.com"}),
    ]


def query_urls(world) -> list[tuple[str, str, dict]]:
    """Every page that reads query parameters: (path, parameter, headers)."""
    m = world["running"].pk
    return [
        (f"/matches/{m}/", "since", {"HTTP_HX_REQUEST": "true"}),
        (f"/matches/{m}/", "select", {}),
        (f"/matches/{m}/", "select", {"HTTP_HX_REQUEST": "true"}),
        ("/matches/new/", "game", {}),
        (f"/admin/games/match/{m}/replay/", "n", {}),
        ("/accounts/login/", "next", {}),
    ]


def game_snapshot(world) -> tuple:
    match = Match.objects.get(pk=world["running"].pk)
    return match.state, match.version, Move.objects.count()  # (a new match with odd but valid options is fine)


def test_hostile_values_in_every_form_field_are_never_a_500(world, client_for):
    before = game_snapshot(world)
    failures = []
    for url, sane in forms_of(world):
        c = client_for(world["mover"]) if "/accounts/" not in url else Client()
        c.raise_request_exception = False  # collect every 500, not just the first
        for field in sane:
            for label, value in HOSTILE.items():
                response = post_raw(c, url, {**sane, field: value})
                if response.status_code >= 500:
                    failures.append(f"POST {url} {field}={label}: {response.status_code}")
    assert not failures, "\n".join(failures)
    assert game_snapshot(world) == before


def test_hostile_values_in_every_query_parameter_are_never_a_500(world, client_for):
    before = game_snapshot(world)
    failures = []
    for viewer in (world["mover"], world["staff"]):
        c = client_for(viewer)
        c.raise_request_exception = False
        for path, name, headers in query_urls(world):
            for label, value in HOSTILE.items():
                response = c.get(f"{path}?{quote(name)}={quote_from_bytes(value)}", **headers)
                if response.status_code >= 500:
                    failures.append(f"GET {path}?{name}={label}: {response.status_code}")
    assert not failures, "\n".join(failures)
    assert game_snapshot(world) == before


def test_hostile_values_in_path_parameters_are_never_a_500(world, client_for):
    c = client_for(world["mover"])
    c.raise_request_exception = False
    for label, value in HOSTILE.items():
        text = quote_from_bytes(value[:200])
        for url in (f"/players/{text}/block/", f"/players/{text}/unblock/", f"/email/unsubscribe/{text}/"):
            assert c.post(url).status_code < 500, f"POST {url} ({label})"
    for number in ("9" * 30, "9" * 5000):
        for url in (f"/matches/{number}/", f"/matches/{number}/move/", f"/chat/{number}/report/"):
            assert c.post(url, {"version": "0", "move": "{}"}).status_code < 500, f"POST {url[:40]}"


@pytest.mark.parametrize("label", sorted(HOSTILE))
def test_an_unreadable_move_is_a_400_and_changes_nothing(world, client_for, label):
    """The move endpoint itself: never a 500, a clear 400, the match as it was."""
    match, c = world["running"], client_for(world["mover"])
    before = game_snapshot(world)
    response = post_raw(c, f"/matches/{match.pk}/move/", {"version": b"0", "move": HOSTILE[label]})
    assert response.status_code == 400
    assert '<p class="error" role="alert">' in response.content.decode()
    assert game_snapshot(world) == before


def test_deeply_nested_move_under_the_size_limit_is_a_400(world, client_for):
    """The reported case: 1,500 [ then 1,500 ] (3,000 bytes) answered 500 (RecursionError)."""
    match = world["running"]
    raw = "[" * 1500 + "]" * 1500
    response = client_for(world["mover"]).post(f"/matches/{match.pk}/move/", {"version": "0", "move": raw})
    assert response.status_code == 400
    assert Match.objects.get(pk=match.pk).version == 0


@pytest.mark.parametrize("target", ["//other.host/", "https://other.host/", "/\\other.host/", "///other.host"])
def test_block_never_redirects_off_the_site(alice, bob, client_for, target):
    response = client_for(alice).post("/players/bob/block/", {"next": target})
    assert response.status_code == 302 and response["Location"] == "/settings/"


def test_block_returns_to_a_page_of_the_site(alice, bob, client_for):
    response = client_for(alice).post("/players/bob/block/", {"next": "/matches/new/"})
    assert response.status_code == 302 and response["Location"] == "/matches/new/"
