"""Engine.board_moves: the legal moves a board may offer, a part of legal_moves (and all of them by default)."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.registry import SPECS, get_engine

PLAYERS = {"solitaire-chess": 2, "doubting-flower-field": 2, "dizzy-duo-battle": 3, "lizzy-ghosties": 4}


@pytest.mark.slow
@pytest.mark.parametrize("slug", list(SPECS))
def test_board_moves_are_legal_moves_in_random_games(slug):
    engine = get_engine(slug)
    rng = random.Random(5)
    state = engine.new_state(PLAYERS[slug], engine.parse_options({}, PLAYERS[slug]), 11)
    for _ in range(120):
        acting = engine.to_act(state)
        if not acting:
            break
        seat = acting[0]
        legal = engine.legal_moves(state, seat)
        shown = engine.board_moves(state, seat)
        assert {json.dumps(m, sort_keys=True) for m in shown} <= {json.dumps(m, sort_keys=True) for m in legal}
        if slug != "doubting-flower-field":
            assert shown == legal
        else:
            assert [m for m in legal if m["type"] != "challenge"] == shown  # FF-9: the board lists no challenge
        state, _ = engine.apply(state, seat, rng.choice(legal))
