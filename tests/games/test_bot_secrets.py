"""Ruling ALL-2: a bot's choices are as secret as the cards. Everything a player can see (the ids,
the version, the seat, the bot's view) and the bot's code must not let anyone rerun the bot."""

from __future__ import annotations

import random

import pytest

from games import actions
from games.engines.base import new_rng
from games.engines.registry import get_bots, get_engine
from games.models import Match

GAME = "doubting-flower-field"
SEEDS = range(1, 13)


def hiding_match(seed: int) -> Match:
    """Match #42 at version 1, the bot (seat 1) to hide its two flowers; only the secret seed differs."""
    engine = get_engine(GAME)
    state = engine.new_state(2, engine.parse_options({}, 2), 7)
    state, _ = engine.apply(state, engine.to_act(state)[0], {"type": "order", "go": "first"})
    assert state["phase"] == "hide" and 1 in engine.to_act(state)
    state["rng"] = new_rng(seed)  # the public state is the same in every match built here
    return Match(pk=42, game=GAME, state=state, version=1)


def test_the_bot_hides_its_flowers_by_the_secret_seed_not_by_public_figures():
    engine = get_engine(GAME)
    chosen = {}
    for seed in SEEDS:
        match = hiding_match(seed)
        assert engine.view(match.state, 0) == engine.view(hiding_match(SEEDS[0]).state, 0)
        chosen[seed] = actions.choose_bot_move(match, 1, "normal")
        assert chosen[seed]["type"] == "hide"
    # Identical public matches: the hidden flowers still differ with the secret seed.
    assert len({str(move) for move in chosen.values()}) > len(SEEDS) // 2


@pytest.mark.slow
def test_rerunning_the_bot_from_what_a_player_sees_does_not_find_its_flowers():
    """An opponent knows the match id, the version, the seat and the bot's code; it rebuilds the
    bot's view (nothing hidden from it yet) and the legal moves, and tries the old public seeding."""
    engine = get_engine(GAME)
    bot = get_bots(engine.slug)["normal"]
    guessed = 0
    for seed in SEEDS:
        match = hiding_match(seed)
        view, legal = engine.view(match.state, 1), engine.legal_moves(match.state, 1)
        guess = bot(view, legal, random.Random(f"bot:{match.pk}:{match.version}:1"))
        guessed += guess == actions.choose_bot_move(match, 1, "normal")
    assert guessed <= 1
