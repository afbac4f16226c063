"""Lizzy Ghosties hard bot: legal moves, obvious wins, the budget."""

from __future__ import annotations

import random

import pytest

from games.engines import search
from games.engines.lizzy_ghosties import ENGINE, SPEC, bots


@pytest.fixture
def tiny_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "HARD_BUDGET_S", 0.001)
    monkeypatch.setattr(bots, "MIN_DEALS", 1)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_hard_always_answers_a_legal_move(players: int, tiny_budget: None) -> None:
    state = ENGINE.new_state(players, ENGINE.parse_options({"dicey": players == 5}, players), players)
    rngs = [random.Random(seat) for seat in range(players)]
    levels = ["hard", "normal", "random"] * players
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        move = SPEC.bots[levels[seat]](ENGINE.view(state, seat), legal, rngs[seat])
        assert move in legal
        state, _ = ENGINE.apply(state, seat, move)
    assert ENGINE.result(state) is not None


def winning_now(state: dict, seat: int, move: dict) -> bool:
    after, _ = ENGINE.apply(state, seat, move)
    result = ENGINE.result(after)
    return result is not None and seat in result.winners


def test_hard_takes_a_move_that_wins_the_game_at_once() -> None:
    """Positions from random games where some move ends the game with the mover's side winning
    and another does not: the hard bot picks a winning one."""
    found = 0
    for game in range(40):
        players = 3 + game % 4
        state = ENGINE.new_state(players, ENGINE.parse_options({}, players), 500 + game)
        rng = random.Random(game)
        while ENGINE.to_act(state) and found < 6:
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_moves(state, seat)
            wins = [winning_now(state, seat, move) for move in legal]
            if any(wins) and not all(wins):
                found += 1
                move = bots.hard_bot(ENGINE.view(state, seat), legal, random.Random(game), budget_s=0.02)
                assert winning_now(state, seat, move)
            move = SPEC.bots["random"](ENGINE.view(state, seat), legal, rng)
            state, _ = ENGINE.apply(state, seat, move)
    assert found >= 3


def test_a_spent_budget_still_decides_on_the_minimum_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))  # each look at the clock: 1 s later
    deals = []
    real_sample = bots_sampler()

    def counting(view: dict, rng: random.Random) -> dict:
        deals.append(1)
        return real_sample(view, rng)

    monkeypatch.setattr(bots, "sample_state", counting)  # the name the bots imported
    state = ENGINE.new_state(4, ENGINE.parse_options({}, 4), 9)
    seat = ENGINE.to_act(state)[0]
    legal = ENGINE.legal_moves(state, seat)
    assert bots.hard_bot(ENGINE.view(state, seat), legal, random.Random(1), budget_s=0.5) in legal
    assert len(legal) > 1 and len(deals) == 1 + bots.MIN_DEALS  # one deal to look for a sure win


def bots_sampler():
    from games.engines.lizzy_ghosties.sampler import sample_state

    return sample_state
