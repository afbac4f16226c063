"""bench/ddb_ceiling.py, the study of what Dizzy Duo Battle's hard bot would gain from hidden cards:
its informed bot keeps the six that do best against the hands it is told, and its
games end."""

from __future__ import annotations

import random

import pytest

from bench import ddb_ceiling
from games.engines.dizzy_cards import hand_power
from games.engines.dizzy_duo_battle import ENGINE, bots


def test_fight_score_is_the_life_swing_of_one_fight() -> None:
    assert ddb_ceiling.fight_score(6, 4) == 10
    assert ddb_ceiling.fight_score(3, 5) == -8
    assert ddb_ceiling.fight_score(5, 5) == 0


def danger_discards(games: int) -> list[tuple[dict, list, list[int]]]:
    """Seat 0's discard views on the turn before the other seat may attack, with the other's power."""
    found = []
    for seed in range(games):
        state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), seed)
        rng = random.Random(seed)
        while ENGINE.to_act(state):
            seat = ENGINE.to_act(state)[0]
            view, legal = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
            if seat == 0 and ddb_ceiling.danger_discard(view):
                found.append((view, legal, [hand_power(state["hands"][1])]))
            state, _ = ENGINE.apply(state, seat, bots.normal_bot(view, legal, rng))
    return found


@pytest.mark.slow
def test_the_informed_bot_keeps_the_six_that_fight_best() -> None:
    positions = danger_discards(3)
    assert len(positions) >= 10
    for view, legal, powers in positions:
        move = ddb_ceiling.informed_move(view, legal, random.Random(0), powers, None)
        scores = {
            card: ddb_ceiling.fight_score(hand_power(bots._without(view["hand"], card)), powers[0])
            for card in view["hand"]
        }
        assert move["type"] == "discard"
        assert scores[move["card"]] == max(scores.values())


@pytest.mark.slow
def test_every_form_plays_a_game_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "HARD_BUDGET_S", 0.001)
    monkeypatch.setattr(bots, "MIN_DEALS", 1)
    monkeypatch.setattr(ddb_ceiling, "DEALS", 3)
    for form in ddb_ceiling.FORMS:
        record = ddb_ceiling.play((form, 7, 2, 0))
        assert record["form"] == form
        assert isinstance(record["won"], bool)
