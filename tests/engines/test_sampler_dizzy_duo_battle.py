"""The Dizzy Duo Battle sampler: every sample is a state the seat cannot tell from the real one."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines.dizzy_cards import DECK
from games.engines.dizzy_duo_battle import ENGINE, SPEC
from games.engines.dizzy_duo_battle.sampler import known_held, sample_state

SETUPS = [
    (2, {}),
    (3, {"main_attack": True}),
    (4, {"open_battles": True, "lives": 8}),
    (5, {"lifeline": True, "lives": 6}),
    (6, {"points_target": 20}),
]


@pytest.mark.slow
def test_samples_show_the_same_view_over_many_positions() -> None:
    checked = 0
    for game, (players, raw) in enumerate(SETUPS):
        options = ENGINE.parse_options(raw, players)
        state = ENGINE.new_state(players, options, 70 + game)
        rng = random.Random(game)
        for _ in range(250):
            if not ENGINE.to_act(state):
                break
            seat = ENGINE.to_act(state)[0]
            view = ENGINE.view(state, seat)
            for skill in (0, 3, 30):
                sample = sample_state(view, rng, skill=skill)
                assert ENGINE.view(sample, seat) == view
                everywhere = [c for hand in sample["hands"] for c in hand] + sample["blind"] + sample["open"]
                assert Counter(everywhere) == Counter(DECK)
                for other, held in known_held(view).items():
                    assert not held - Counter(sample["hands"][other])  # cards seen taken stay with their taker
            checked += 1
            move = SPEC.bots["normal" if game % 2 else "random"](view, ENGINE.legal_moves(state, seat), rng)
            state, _ = ENGINE.apply(state, seat, move)
    assert checked > 500


def test_skill_deals_stronger_other_hands_the_more_turns_they_had() -> None:
    """Players keep good cards: with skill, another hand is the best of more fillings as its turns grow."""
    from games.engines.dizzy_cards import hand_power

    state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), 12)
    rng = random.Random(4)
    means = []
    for turns in (0, 3):
        while state["turns"][1] < turns:
            seat = ENGINE.to_act(state)[0]
            move = {"type": "take", "from": "blind"}
            if state["phase"] == "discard":
                move = {"type": "discard", "card": state["hands"][seat][0]}
            state, _ = ENGINE.apply(state, seat, move)
        view = ENGINE.view(state, 0)
        plain = [hand_power(sample_state(view, rng)["hands"][1]) for _ in range(200)]
        skilled = [hand_power(sample_state(view, rng, skill=30)["hands"][1]) for _ in range(200)]
        means.append((sum(plain) / 200, sum(skilled) / 200))
    (plain_0, skilled_0), (plain_3, skilled_3) = means
    assert abs(skilled_0 - plain_0) < 0.5  # no turns yet: a dealt hand is a random hand
    assert skilled_3 > plain_3 + 1.5  # three turns of choosing: the best of 31 fillings
