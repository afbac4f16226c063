"""The Lizzy Ghosties sampler: every sample is a state the seat cannot tell from the real one."""

from __future__ import annotations

import random

from games.engines.lizzy_ghosties import ENGINE, SPEC
from games.engines.lizzy_ghosties.sampler import sample_state


def test_samples_show_the_same_view_over_many_positions() -> None:
    checked = 0
    for game in range(24):
        players = 3 + game % 6
        options = ENGINE.parse_options({"dicey": game % 2 == 0}, players)
        state = ENGINE.new_state(players, options, 40 + game)
        rng = random.Random(game)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            sample = sample_state(view, rng)
            assert ENGINE.view(sample, seat) == view
            ENGINE.check_invariants(sample)  # every card once, each below-top card of its stack's part
            if view["last_draw"] is not None and view["last_draw"]["card"] is not None:
                assert sample["side"][-1] == state["side"][-1]  # the card drawn last lies at the bottom
            checked += 1
            move = SPEC.bots["normal" if game % 3 else "random"](view, ENGINE.legal_moves(state, seat), rng)
            state, _ = ENGINE.apply(state, seat, move)
    assert checked > 300


def test_a_sampled_state_plays_on_like_the_real_one() -> None:
    state = ENGINE.new_state(5, ENGINE.parse_options({}, 5), 3)
    rng = random.Random(3)
    for _ in range(30):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(
            state, seat, SPEC.bots["normal"](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rng)
        )
    seat = ENGINE.to_act(state)[0]
    sample = sample_state(ENGINE.view(state, seat), rng)
    for move in ENGINE.legal_moves(state, seat):
        ENGINE.apply(sample, seat, move)  # every legal move of the real state is legal on the sample
