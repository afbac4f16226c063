"""Doubting Flower Field moves and states for the engine's tests and its bots' tests
(tests/engines/test_flower_field.py, test_bots_flower_field.py). Not a test module."""

from __future__ import annotations

import copy
from typing import Any

from games.engines.flower_field import ENGINE

# Hidden flowers far from the centre, so that the scenarios below do not touch them.
FAR0 = [("A1", "blue"), ("G7", "blue")]
FAR1 = [("A7", "yellow"), ("G1", "yellow")]


def hide(flowers: list[tuple[str, str]]) -> dict[str, Any]:
    return {"type": "hide", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


def plant(*flowers: tuple[str, str]) -> dict[str, Any]:
    return {"type": "plant", "flowers": [{"cell": c, "colour": k} for c, k in flowers]}


def challenge(a: str, b: str) -> dict[str, Any]:
    return {"type": "challenge", "a": a.split(), "b": b.split()}


def step(state: dict, seat: int, move: dict) -> dict:
    before = copy.deepcopy(state)
    new, entries = ENGINE.apply(state, seat, move)
    assert state == before, "apply mutated its input"
    assert all(e["audience"] == "all" or isinstance(e["audience"], list) for e in entries)
    ENGINE.check_invariants(new)
    return new


def started(hidden0=FAR0, hidden1=FAR1, seed: int = 1) -> dict:
    """Seat 0 is the advantage player and goes first; both hid their flowers."""
    state = ENGINE.new_state(2, {"advantage": "0"}, seed)
    state = step(state, 0, {"type": "order", "go": "first"})
    state = step(state, 0, hide(hidden0))
    return step(state, 1, hide(hidden1))


def with_duplicate(**kwargs: Any) -> dict:
    """Seat 1's planting D6 + D2 makes D2-D5 (R R Y R) equal to D3-D6 (R Y R R) by a reflection."""
    state = started(**kwargs)
    state = step(state, 0, plant(("D5", "red"), ("D3", "red")))
    return step(state, 1, plant(("D6", "red"), ("D2", "red")))
