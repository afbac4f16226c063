"""Replaying a match's seed and move log rebuilds the stored state exactly, for every game."""

from __future__ import annotations

import pytest

from games import actions
from games.actions import SeatSpec
from games.engines.registry import available_engines, get_engine
from games.models import Match

pytestmark = pytest.mark.django_db

# Short matches keep this test quick; the engines' own tests play the long ones.
SHORT_OPTIONS = {"dizzy-duo-battle": {"lives": 4}}


def replay_from_log(match: Match) -> dict:
    engine = get_engine(match.game)
    state = engine.new_state(match.seats.count(), match.options, int(match.seed))
    for move in match.moves.order_by("number"):
        if move.kind == "timeout":
            state, _ = engine.apply_timeout(state, move.seat)
        else:
            state, _ = engine.apply(state, move.seat, move.payload)
    return state


@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_replay_rebuilds_the_stored_state(slug, alice, django_capture_on_commit_callbacks):
    engine = get_engine(slug)
    bots = [SeatSpec("bot", "random") for _ in range(engine.min_players - 1)]
    # The human seat plays random legal moves too, through the same action as the pages.
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(alice, slug, [SeatSpec("me"), *bots], SHORT_OPTIONS.get(slug))
    for _ in range(engine.max_moves(engine.min_players, match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in engine.to_act(match.state):
            with django_capture_on_commit_callbacks(execute=True):
                actions.do_move(match.pk, alice, match.version, engine.legal_moves(match.state, 0)[-1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.moves.count() == match.version > 0
    assert replay_from_log(match) == match.state


def test_replay_includes_timeouts(alice, bob):
    from tests.helpers import start_match

    match = start_match(alice, [bob], options={"ruleset": "final"})
    engine = get_engine(match.game)
    seat = engine.to_act(match.state)[0]
    actions.do_move(match.pk, match.seats.get(number=seat).user, 0, engine.legal_moves(match.state, seat)[0])
    match.refresh_from_db()
    late = engine.to_act(match.state)[0]
    assert actions.do_timeout(match.pk, late, match.version) is not None
    assert actions.do_timeout(match.pk, late, match.version) is None  # stale: safe to run twice
    match.refresh_from_db()
    assert match.moves.filter(kind="timeout").count() == 1
    assert replay_from_log(match) == match.state
