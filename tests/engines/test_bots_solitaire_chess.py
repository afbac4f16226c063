"""Solitaire Chess hard bot: legal moves, the rebuilt state, an obvious win, the budget."""

from __future__ import annotations

import random

import pytest

from games.engines import search
from games.engines.solitaire_chess import ENGINE, SPEC, bots, sampler


@pytest.fixture
def tiny_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "HARD_BUDGET_S", 0.002)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["death", "final"])
def test_hard_always_answers_a_legal_move_and_its_state_shows_the_same_view(ruleset: str, tiny_budget: None) -> None:
    for seed, levels in ((1, ("hard", "random")), (2, ("normal", "hard"))):
        state = ENGINE.new_state(2, ENGINE.parse_options({"ruleset": ruleset}, 2), seed)
        rngs = [random.Random(seed * 10 + seat) for seat in (0, 1)]
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            assert ENGINE.view(sampler.state_from_view(view), seat) == view  # nothing hidden, nothing lost
            legal = ENGINE.legal_moves(state, seat)
            move = SPEC.bots[levels[seat]](view, legal, rngs[seat])
            assert move in legal
            state, _ = ENGINE.apply(state, seat, move)
        assert ENGINE.result(state) is not None


def endgame() -> dict:
    """Seat 1 is out with 5 cards and wins a tie (advantage, SC-6); seat 0 has 4 cards, one queen on
    d4, and only kings fit its stacks: g4 is a dead end (a tie: lost), d5 and d3 lead on (a win)."""
    state = ENGINE.new_state(2, ENGINE.parse_options({"ruleset": "death", "advantage": "1"}, 2), 0)
    state.update(phase="play", turn=0, first=1, turn_number=20)
    state["pieces"] = {"d4": {"owner": 0, "entered": 5}}
    state.update(in_hand=[0, 0], out=[False, True], out_reason=[None, "no_moves"], out_order=[1])
    state["stacks"] = [
        {suit: [f"Q{suit}"] for suit in "CDHS"},
        {"C": ["QC"], "D": ["AD", "QD"], "H": ["AH", "QH"], "S": []},
    ]
    ENGINE.check_invariants(state)
    return state


def test_hard_finds_the_way_to_win_and_avoids_the_dead_end() -> None:
    state = endgame()
    legal = ENGINE.legal_moves(state, 0)
    assert {m["to"] for m in legal} == {"g4", "d5", "d3"}
    for seed in range(3):
        move = bots.hard_bot(ENGINE.view(state, 0), legal, random.Random(seed), budget_s=0.5)
        assert move["to"] != "g4"
        while ENGINE.to_act(state := ENGINE.apply(state, 0, move)[0]):
            move = bots.hard_bot(ENGINE.view(state, 0), ENGINE.legal_moves(state, 0), random.Random(seed), budget_s=0.5)
        assert ENGINE.result(state).winners == [0]
        state = endgame()


def test_a_spent_budget_still_gives_a_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no time at all the search stops before its first depth and plays its favourite."""
    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))  # every look at the clock: 1 s later
    state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), 4)
    rng = random.Random(4)
    while ENGINE.view(state, ENGINE.to_act(state)[0])["phase"] != "play":
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(
            state, seat, SPEC.bots["normal"](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rng)
        )
    seat = ENGINE.to_act(state)[0]
    legal = ENGINE.legal_moves(state, seat)
    assert bots.hard_bot(ENGINE.view(state, seat), legal, rng, budget_s=0.5) in legal
