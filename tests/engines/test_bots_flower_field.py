"""Doubting Flower Field hard bot: legal moves, obvious wins, beliefs about claims."""

from __future__ import annotations

import random

import pytest

from games.engines.flower_field import ENGINE, SPEC, bots
from tests.engines.flower_field_moves import challenge, plant, started, step, with_duplicate


def hard(state: dict, seat: int, seed: int = 1) -> dict:
    legal = ENGINE.legal_moves(state, seat)
    move = bots.hard_bot(ENGINE.view(state, seat), legal, random.Random(seed))
    assert move in legal
    return move


@pytest.mark.slow
def test_hard_always_answers_a_legal_move_in_whole_games() -> None:
    for seed, levels in ((1, ("hard", "random")), (3, ("normal", "hard"))):
        state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), seed)
        rngs = [random.Random(seed * 10 + seat) for seat in (0, 1)]
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_moves(state, seat)
            move = SPEC.bots[levels[seat]](ENGINE.view(state, seat), legal, rngs[seat])
            assert move in legal  # the hard bot claims only listed challenges
            state, _ = ENGINE.apply(state, seat, move)
        assert ENGINE.result(state) is not None


def test_hard_takes_the_winning_challenge() -> None:
    state = with_duplicate()
    state["lives"][1] = 1  # a true challenge now ends the game (FF-8)
    move = hard(state, 0)
    assert move["type"] == "challenge"
    after = step(state, 0, move)
    assert ENGINE.result(after).winners == [0]


def claimed(a: str, b: str, hidden0: list[tuple[str, str]]) -> dict:
    """Seat 0 claims a hidden flower on D6 (empty) with fields a and b; seat 1 must answer."""
    state = started(hidden0=hidden0)
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D2", "red")))
    return step(state, 0, challenge(a, b))


def test_hard_doubts_a_claim_no_colour_can_make_true() -> None:
    """D2-D5 is a straight line, C5 D5 D6 C6 a square: no colours of D6 and C6 make them equal."""
    state = started(hidden0=[("C6", "red"), ("A1", "red")])
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("C5", "red"), ("D2", "red")))
    state = step(state, 0, challenge("D2 D3 D4 D5", "C5 D5 D6 C6"))  # D6 and C6 empty
    assert state["phase"] == "doubt"
    assert hard(state, 1) == {"type": "challenge_challenge"}


def test_hard_doubts_a_claim_on_a_cell_that_cannot_hold_a_hidden_flower() -> None:
    """Seat 1's own hidden flower lies on D6: the opponent's cannot (a shared cell cancels both)."""
    state = claimed("D2 D3 D4 D5", "D3 D4 D5 D6", hidden0=[("A2", "red"), ("A1", "red")])
    state["hidden"][1][0]["cell"] = "D6"
    assert hard(state, 1) == {"type": "challenge_challenge"}


def test_hard_lets_a_first_plausible_claim_pass_and_doubts_a_repeated_one() -> None:
    state = claimed("D2 D3 D4 D5", "D3 D4 D5 D6", hidden0=[("D6", "red"), ("A1", "red")])
    assert hard(state, 1) == {"type": "accept"}
    # The same claim let pass twice before: honest claims are rare, repeated ones rarer.
    earlier = dict(state["challenges"][-1], doubt="accepted")
    state["challenges"][-1:-1] = [earlier, dict(earlier)]
    state["pending"] = len(state["challenges"]) - 1
    assert hard(state, 1) == {"type": "challenge_challenge"}


@pytest.mark.slow
def test_hard_bluffs_more_against_a_player_who_never_doubts() -> None:
    state = started()
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    state = step(state, 1, plant(("D2", "red")))  # D3-D6 would equal D2-D5 with a red D6
    view = ENGINE.view(state, 0)
    legal = ENGINE.legal_moves(state, 0)
    assert any(m["type"] == "challenge" for m in legal)
    mine = {"seat": 0, "a": [], "b": [], "empty": ["A2"], "announced": "successful", "final": False, "seen": {}}
    credulous = dict(view, challenges=[dict(mine, doubt="accepted") for _ in range(6)])
    doubter = dict(view, challenges=[dict(mine, doubt="successful") for _ in range(6)])
    claims = {}
    for name, shown in (("credulous", credulous), ("doubter", doubter)):
        moves = [bots.hard_bot(shown, legal, random.Random(seed)) for seed in range(40)]
        claims[name] = sum(move["type"] == "challenge" for move in moves)
    assert claims["credulous"] > 3 * max(1, claims["doubter"])
    assert claims["credulous"] < 40  # mixed: never a sure thing
