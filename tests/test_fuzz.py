"""Hostile input (hypothesis): never a 500, never a change of state, always a clear 4xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Match, Move
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db
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
    if response.status_code == 302:  # the fuzzer found a legal move: fine, but it must be one
        assert Move.objects.filter(match=match).count() == 1
        Move.objects.filter(match=match).delete()
        Match.objects.filter(pk=match.pk).update(state=before, version=0)
        return
    assert 400 <= response.status_code < 500
    assert '<p class="error" role="alert">' in response.content.decode()
    assert Match.objects.get(pk=match.pk).state == before and not Move.objects.filter(match=match).exists()


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
    if response.status_code != 302:
        assert Match.objects.count() == count


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
