"""The Flower Field sampler: every sample is a state the seat cannot tell from the real one."""

from __future__ import annotations

import random

import pytest

from bench.ladder_players import SCRIPTED
from games.engines.flower_field import ENGINE, SPEC
from games.engines.flower_field.sampler import Facts, claim_true, sample_state

PLAYERS = {**SPEC.bots, **SCRIPTED["doubting-flower-field"]}
LINE_UPS = [("random", "random"), ("normal", "liar"), ("bluffer", "hard"), ("credulous", "bluffer"), ("hard", "honest")]


@pytest.mark.slow
def test_samples_show_the_same_view_and_agree_with_every_judged_claim() -> None:
    checked = 0
    for game, levels in enumerate(LINE_UPS):
        state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), 900 + game)
        rng = random.Random(game)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            sample = sample_state(view, rng)
            assert ENGINE.view(sample, seat) == view
            ENGINE.check_invariants(sample)
            facts = Facts(view)
            for challenge in sample["challenges"]:
                if challenge["seat"] != seat and challenge["doubt"] in ("failed", "successful"):
                    assert challenge["truth"] is (challenge["doubt"] == "failed")
            mine = sample["hidden"][seat]
            if mine is not None:
                assert mine == state["hidden"][seat]  # the seat's own flowers are never dealt anew
            if view["phase"] not in ("order", "hide"):
                assert facts.live_count == sum(h["status"] == "live" for h in state["hidden"][1 - seat])
            checked += 1
            move = PLAYERS[levels[seat]](view, ENGINE.legal_moves(state, seat), rng)
            state, _ = ENGINE.apply(state, seat, move)
    assert checked > 100


@pytest.mark.slow
def test_the_real_hidden_flowers_are_always_possible() -> None:
    """The true deal is one the sampler may draw: live flowers lie on cells it counts as possible."""
    for game in range(6):
        state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), 50 + game)
        rng = random.Random(game)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            if state["hidden"][1 - seat] is not None and view["phase"] != "hide":
                facts = Facts(view)
                real = {h["cell"]: h["colour"] for h in state["hidden"][1 - seat] if h["status"] == "live"}
                assert set(real) <= set(facts.possible)
                for challenge in state["challenges"]:
                    if challenge["seat"] != seat and challenge["doubt"] == "failed":
                        assert challenge["truth"]
            move = PLAYERS["bluffer" if seat else "hard"](view, ENGINE.legal_moves(state, seat), rng)
            state, _ = ENGINE.apply(state, seat, move)
    assert claim_true({"empty": ["A1"], "seen": {}, "a": [], "b": []}, {}) is False
