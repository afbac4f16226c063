"""Dizzy Duo Battle hard bot (issue 14) and the shared search helper: legal moves, an obvious win,
the budget."""

from __future__ import annotations

import random

import pytest

from games.engines import search
from games.engines.dizzy_duo_battle import ENGINE, bots

GOLDEN_DUO = [f"{part}-{pair}-gold" for pair in ("red-dots", "blue-stripes") for part in ("head", "body", "tail")]


@pytest.fixture
def tiny_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "HARD_BUDGET_S", 0.001)
    monkeypatch.setattr(bots, "MIN_DEALS", 1)


@pytest.mark.parametrize("players", [2, 4])
def test_hard_always_answers_a_legal_move(players: int, tiny_budget: None) -> None:
    options = ENGINE.parse_options({"lives": 4, "main_attack": players == 4}, players)
    state = ENGINE.new_state(players, options, players)
    rngs = [random.Random(seat) for seat in range(players)]
    levels = ["hard"] + ["normal", "random"] * players
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_moves(state, seat)
        move = ENGINE.bots[levels[seat]](ENGINE.view(state, seat), legal, rngs[seat])
        assert move in legal
        state, _ = ENGINE.apply(state, seat, move)
    assert ENGINE.result(state) is not None


def give(state: dict, seat: int, wanted: list[str]) -> None:
    """Put these cards in the seat's hand, swapping them with whatever it held (cards stay 54)."""
    hand = state["hands"][seat]
    for card in wanted:
        if card in hand:
            continue
        spare = next(c for c in hand if c not in wanted)
        for pile in [*state["hands"], state["blind"], state["open"]]:
            if pile is not hand and card in pile:
                pile[pile.index(card)] = spare
                break
        hand[hand.index(spare)] = card
    state["hands"] = [sorted(h, key=ENGINE_SORT) for h in state["hands"]]


def ENGINE_SORT(card: str) -> tuple[int, int, int, int]:  # noqa: N802 - the engine's own order
    from games.engines.dizzy_cards import card_sort_key

    return card_sort_key(card)


def test_hard_attacks_when_an_attack_surely_wins_the_game() -> None:
    state = ENGINE.new_state(2, ENGINE.parse_options({"lives": 1}, 2), 8)  # one lost fight ends it
    rng = random.Random(8)
    while state["phase"] != "take" or min(state["turns"]) < 3 or state["current"] != 0:
        seat = ENGINE.to_act(state)[0]
        move = ENGINE.bots["random"](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rng)
        if move["type"] == "attack":
            move = {"type": "take", "from": "blind"} if state["phase"] == "take" else move
        state, _ = ENGINE.apply(state, seat, move)
    give(state, 0, GOLDEN_DUO)  # the strongest hand of the deck: nobody can beat it
    ENGINE.check_invariants(state)
    legal = ENGINE.legal_moves(state, 0)
    assert {"type": "attack"} in legal
    move = bots.hard_bot(ENGINE.view(state, 0), legal, random.Random(1), budget_s=0.05)
    assert move == {"type": "attack"}
    assert ENGINE.result(ENGINE.apply(state, 0, move)[0]).winners == [0]


def test_flat_pimc_plays_its_minimum_rounds_then_stops_at_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))  # each look at the clock: 1 s later
    calls = []

    def score(world: int, move: str, rng: random.Random) -> float:
        calls.append(move)
        return {"a": 0.0, "b": 1.0}[move]

    best, means, rounds = search.flat_pimc(["a", "b"], lambda r: 0, score, random.Random(1), budget_s=0, min_rounds=3)
    assert rounds == 3 and len(calls) == 6 and best == "b" and means == [0.0, 1.0]
    _best, _means, rounds = search.flat_pimc(["a", "b"], lambda r: 0, score, random.Random(1), budget_s=5)
    assert rounds <= 5


def test_flat_pimc_keeps_the_favourite_unless_another_is_clearly_better() -> None:
    def noisy(world: float, move: str, rng: random.Random) -> float:
        return world + (rng.gauss(0.01, 1) if move == "b" else 0.0)  # b: no better, only noisier

    best, _means, _rounds = search.flat_pimc(
        ["a", "b"], lambda r: r.random(), noisy, random.Random(2), budget_s=0, min_rounds=5, margin_z=3.0
    )
    assert best == "a"
