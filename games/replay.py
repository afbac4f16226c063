"""The one replay loop: the seed and the move log through the engine rebuild every position (ALL-2).

Used by the public replay page and the match records (ratings.replay) and by the moderators' replay
in the admin (moderation/admin_matches.py).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from games.engines.base import Engine, State
from games.engines.registry import get_engine
from games.models import Match, Move

# A move as the replay needs it: (kind, seat, payload); kind "timeout" replays as apply_timeout.
Step = tuple[str, int, dict[str, Any]]


def positions(
    engine: Engine, players: int, options: dict[str, Any], seed: int, steps: Iterable[Step]
) -> Iterator[State]:
    """The state before the first move, then after each move in turn."""
    first = engine.new_state(players, options, seed)
    yield first
    for state, _log in replayed(engine, first, steps):
        yield state


def replayed(engine: Engine, state: State, steps: Iterable[Step]) -> Iterator[tuple[State, list[dict[str, Any]]]]:
    """The state after each step from `state`, with the log the engine wrote for it (none for a
    resignation: its log is the site's, kept with the move)."""
    for kind, seat, payload in steps:
        if kind == Move.Kind.TIMEOUT:
            state, log = engine.apply_timeout(state, seat)
        elif kind == Move.Kind.RESIGN:  # the site's end or hand-over (ruling SITE-RESIGN): the state stays
            log = []
        else:
            state, log = engine.apply(state, seat, payload)
        yield state, log


def engine_logs(match: Match, steps: list[Step]) -> list[list[dict[str, Any]]]:
    """Each step's log as the engine writes it, replayed from the match's seed, as stored (JSON)."""
    engine = get_engine(match.game)
    state = engine.new_state(match.seats.count(), match.options, int(match.seed))
    return [json.loads(json.dumps(log)) for _state, log in replayed(engine, state, steps)]


def last(states: Iterator[State]) -> State:
    return deque(states, maxlen=1)[0]


def match_steps(moves: Iterable[Move]) -> list[Step]:
    return [(move.kind, move.seat, move.payload) for move in moves]


def state_after(match: Match, moves: list[Move]) -> State | None:
    """The match's state after `moves` (its first moves, in order); None before it started."""
    if not match.seed:
        return None
    steps = match_steps(moves)
    return last(positions(get_engine(match.game), match.seats.count(), match.options, int(match.seed), steps))
