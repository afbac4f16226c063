"""Dizzy Duo Battle hard bot and the shared search helper: legal moves, an obvious win,
the budget."""

from __future__ import annotations

import random

import pytest

from games.engines import search
from games.engines.dizzy_duo_battle import ENGINE, SPEC, bots

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
        move = SPEC.bots[levels[seat]](ENGINE.view(state, seat), legal, rngs[seat])
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
        move = SPEC.bots["random"](ENGINE.view(state, seat), ENGINE.legal_moves(state, seat), rng)
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


def play_without_attacks(players: int, seed: int, until: int) -> dict:
    """A game whose players only take blind and discard their first card, until `until` turns are
    recorded this round (attacks open after 3 turns each, DD-7)."""
    state = ENGINE.new_state(players, ENGINE.parse_options({}, players), seed)
    while len(state["history"]) < until:
        seat = ENGINE.to_act(state)[0]
        if state["phase"] == "take":
            move = {"type": "take", "from": "blind"}
        else:
            move = {"type": "discard", "card": state["hands"][seat][0]}
        state, _ = ENGINE.apply(state, seat, move)
    return state


def test_passes_are_the_turns_other_seats_began_with_attacks_open() -> None:
    state = play_without_attacks(2, seed=3, until=6)  # 3 turns each: nobody could attack yet
    assert bots._passes(ENGINE.view(state, state["current"])) == {}
    state = play_without_attacks(2, seed=3, until=8)  # each seat has now passed one chance
    me = state["current"]
    other = 1 - me
    passed = bots._passes(ENGINE.view(state, me))
    assert list(passed) == [other]
    assert passed[other]["discarded"] == state["history"][-1]["discarded"]
    assert bots._passes(ENGINE.view(state, me) | {"options": {"main_attack": True}}) == {}


def test_a_deal_must_not_give_a_passing_seat_a_hand_it_would_have_attacked_with() -> None:
    state = play_without_attacks(2, seed=3, until=8)
    me = state["current"]
    other = 1 - me
    give(state, other, GOLDEN_DUO)
    same_card = state["hands"][other][0]  # took and discarded the same open card: its hand was as now
    passed = {other: {"seat": other, "from": "open", "took": same_card, "discarded": same_card}}
    assert not bots._fits_passes(state, passed, random.Random(1))
    weak = ["head-red-dots", "head-red-stripes", "head-blue-dots", "body-red-dots", "body-blue-dots", "tail-red-dots"]
    give(state, other, weak)
    assert bots._fits_passes(state, passed, random.Random(1))


def test_deals_show_the_seat_its_own_view_and_fit_passes_more_often_than_plain_samples() -> None:
    from games.engines.dizzy_duo_battle.sampler import sample_state

    state = play_without_attacks(2, seed=5, until=8)
    me = state["current"]
    view = ENGINE.view(state, me)
    passed = bots._passes(view)
    rng = random.Random(2)
    fits_dealt = fits_plain = 0
    for _ in range(60):
        dealt = bots.deal(view, rng)
        assert ENGINE.view(dealt, me) == view
        fits_dealt += bots._fits_passes(dealt, passed, rng)
        fits_plain += bots._fits_passes(sample_state(view, rng, skill=bots.SAMPLE_SKILL), passed, rng)
    assert fits_dealt > fits_plain


def test_hard_decides_the_same_move_given_the_same_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "CLOCK", lambda: float(next(ticks)))  # each look at the clock: 1 s later
    state = play_without_attacks(2, seed=5, until=8)
    seat = state["current"]
    view, legal = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
    moves = [bots.hard_bot(view, legal, random.Random(11), budget_s=0.5) for _ in range(3)]
    assert moves[0] in legal and moves.count(moves[0]) == 3
    assert ENGINE.view(state, seat) == view  # the bot changed nothing it was given


POWER_4 = [
    "body-blue-stripes",
    "body-red-diamonds",
    "head-blue-dots",
    "head-red-diamonds",
    "tail-blue-diamonds",
    "tail-red-dots",
]
POWER_5 = [
    "body-blue-diamonds",
    "body-purple-stripes",
    "head-purple-stripes",
    "head-red-dots",
    "tail-blue-diamonds",
    "tail-purple-dots",
]
POWER_6 = [
    "body-blue-dots",
    "body-red-diamonds",
    "head-blue-dots",
    "head-purple-dots",
    "tail-purple-stripes",
    "tail-red-dots",
]
ONE_LIZZY = [
    "body-blue-diamonds",
    "body-red-diamonds",
    "body-red-dots",
    "head-blue-diamonds",
    "head-purple-stripes",
    "tail-red-dots",
]


@pytest.mark.parametrize(
    ("turns", "hand", "power", "attacks"),
    [
        (6, POWER_6, 6, False),  # the round's first chance: a normal bot's chosen hand is as strong
        (6, GOLDEN_DUO, 21, True),
        (7, POWER_5, 5, True),  # the other seat passed its chance up: its hand is likely weak
        (7, POWER_4, 4, False),
        (9, POWER_4, 4, True),  # a turn later the power asked falls by one
        (7, ONE_LIZZY, 3, False),  # one Lizzy only: no attack allowed (DD-7)
    ],
)
def test_hard_attacks_with_the_measured_powers(turns: int, hand: list[str], power: int, attacks: bool) -> None:
    from games.engines.dizzy_cards import hand_power

    state = play_without_attacks(2, seed=9, until=turns)
    seat = state["current"]
    give(state, seat, hand)
    ENGINE.check_invariants(state)
    assert hand_power(state["hands"][seat]) == power and state["lives"] == [20, 20]  # far from the end: no search
    view, legal = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
    move = bots.hard_bot(view, legal, random.Random(3))
    assert move in legal
    assert (move == {"type": "attack"}) == attacks


@pytest.mark.parametrize(
    ("players", "lives", "hand", "searched"),
    [
        (2, 20, POWER_6, False),
        (2, bots.ENDGAME_LIVES, POWER_6, True),
        (2, bots.ENDGAME_LIVES, ONE_LIZZY, False),  # no attack to weigh (DD-7)
        (3, bots.ENDGAME_LIVES, POWER_6, False),
    ],
)
def test_hard_searches_whether_to_attack_only_when_a_battle_may_end_a_two_player_game(
    players: int, lives: int, hand: list[str], searched: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches = []

    def recording(candidates: list, sample, score, rng: random.Random, budget_s: float, **kwargs) -> tuple:
        searches.append((budget_s, candidates))
        return candidates[0], [0.0] * len(candidates), kwargs["min_rounds"]

    monkeypatch.setattr(bots, "flat_pimc", recording)  # the name the bots imported
    state = play_without_attacks(players, seed=9, until=3 * players + 1)
    seat = state["current"]
    give(state, seat, hand)
    state["lives"][(seat + 1) % players] = lives  # the bot reads lives from its view only
    view, legal = ENGINE.view(state, seat), ENGINE.legal_moves(state, seat)
    assert len(legal) > 1
    assert bots.hard_bot(view, legal, random.Random(5), budget_s=0.25) in legal
    assert [budget for budget, _ in searches] == ([0.25] if searched else [])
    for _, candidates in searches:  # attacking or the heuristic's take, nothing else
        assert sorted(m["type"] for m in candidates) == ["attack", "take"]


def test_hard_values_potential_less_once_the_next_seat_may_attack() -> None:
    early = play_without_attacks(2, seed=4, until=2)  # the seat to act has had 1 turn
    assert bots.hard_weight(ENGINE.view(early, early["current"])) == bots.HARD_POTENTIAL_WEIGHT
    # The second seat's 3rd turn: after it both have had 3 turns, so the first seat may attack next.
    danger = play_without_attacks(2, seed=4, until=5)
    assert bots.hard_weight(ENGINE.view(danger, danger["current"])) == bots.HARD_DANGER_WEIGHT
    assert bots.HARD_DANGER_WEIGHT < bots.POTENTIAL_WEIGHT < bots.HARD_POTENTIAL_WEIGHT


def test_hard_values_potential_less_at_a_table_of_three() -> None:
    early = play_without_attacks(3, seed=4, until=2)
    assert bots.hard_weight(ENGINE.view(early, early["current"])) == 1.2
    four = play_without_attacks(4, seed=4, until=2)
    assert bots.hard_weight(ENGINE.view(four, four["current"])) == bots.HARD_POTENTIAL_WEIGHT
