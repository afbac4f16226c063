"""Whole games between bots through the engine contract (selfplay, conformance tests, benches)."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Engine, Move, State
from games.engines.registry import get_bots


@dataclass
class PlayoutRecord:
    seed: int
    moves: list[tuple[int, Move]] = field(default_factory=list)
    final_state: State | None = None
    result: dict[str, Any] | None = None
    seconds_in_bots: float = 0.0
    seconds_in_engine: float = 0.0


def play(
    engine: Engine,
    players: int,
    options: dict[str, Any],
    seed: int,
    levels: list[str] | None = None,
    check: bool = True,
    max_moves: int | None = None,
) -> PlayoutRecord:
    """Play one whole game; bots decide from their seat's view and legal moves only.

    With check=True the engine's invariants and the contract's promises are checked after every
    move (legal moves exist exactly for the seats to act, apply leaves its input untouched)."""
    levels = (levels or []) + ["random"] * (players - len(levels or []))
    by_level = get_bots(engine.slug)
    bots = [by_level.get(level) or by_level["random"] for level in levels]
    bot_rngs = [random.Random(f"{seed}:bot:{seat}") for seat in range(players)]
    limit = max_moves or engine.max_moves(players, options)
    record = PlayoutRecord(seed=seed)
    state = engine.new_state(players, options, seed)
    while True:
        to_act = engine.to_act(state)
        if check:
            engine.check_invariants(state)
            for seat in range(players):
                has_moves = bool(engine.legal_moves(state, seat))
                assert has_moves == (seat in to_act), f"seat {seat}: legal moves {has_moves}, to act {to_act}"
            assert (engine.result(state) is None) == bool(to_act), "result must exist exactly when nobody acts"
        if not to_act:
            break
        if len(record.moves) >= limit:
            raise AssertionError(f"{engine.slug}: no end after {limit} moves (seed {seed})")
        seat = to_act[0]
        started = time.perf_counter()
        view = engine.view(state, seat)
        legal = engine.legal_moves(state, seat)
        move = bots[seat](view, legal, bot_rngs[seat])
        between = time.perf_counter()
        before = json.dumps(state, sort_keys=True) if check else ""
        new_state, _entries = engine.apply(state, seat, move)
        record.seconds_in_engine += time.perf_counter() - between
        record.seconds_in_bots += between - started
        if check:
            assert json.dumps(state, sort_keys=True) == before, "apply() changed its input state"
        state = new_state
        record.moves.append((seat, move))
    record.final_state = state
    result = engine.result(state)
    record.result = result.as_dict() if result else None
    return record


def replay(engine: Engine, players: int, options: dict[str, Any], seed: int, moves: list[tuple[int, Move]]) -> State:
    state = engine.new_state(players, options, seed)
    for seat, move in moves:
        state, _ = engine.apply(state, seat, move)
    return state
