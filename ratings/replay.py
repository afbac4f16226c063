"""Replaying a match: the seed and the move log through the engine rebuild every position (ALL-2).

One loop for the whole site: the public replay page, the JSON record and `manage.py replay`, and the
moderators' replay in games/admin.py all step through `positions`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from games.engines.base import Engine, State
from games.engines.registry import get_engine
from games.models import Match, Move

RECORD_FORMAT = "dizzysite-match-record/1"

# A move as the replay needs it: (kind, seat, payload); kind "timeout" replays as apply_timeout.
Step = tuple[str, int, dict[str, Any]]


def positions(
    engine: Engine, players: int, options: dict[str, Any], seed: int, steps: Iterable[Step]
) -> Iterator[State]:
    """The state before the first move, then after each move in turn."""
    state = engine.new_state(players, options, seed)
    yield state
    for kind, seat, payload in steps:
        if kind == Move.Kind.TIMEOUT:
            state, _ = engine.apply_timeout(state, seat)
        elif kind == Move.Kind.RESIGN:  # the site's end or hand-over (ruling SITE-RESIGN): the state stays
            pass
        else:
            state, _ = engine.apply(state, seat, payload)
        yield state


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


def build_record(match: Match) -> dict[str, Any]:
    """A finished match as JSON data: everything needed to replay it and check its result."""
    seats = list(match.seats.select_related("user").order_by("number"))
    moves = list(match.moves.order_by("number"))
    return {
        "format": RECORD_FORMAT,
        "match": match.pk,
        "game": match.game,
        "options": match.options,
        "seed": match.seed,
        "rated": match.rated,
        "clock": {
            "preset": match.time_preset,
            "turn_seconds": match.turn_seconds,
            "reserve_periods": match.reserve_periods,
            "period_seconds": match.period_seconds,
            "weekend_pause": match.weekend_pause,
        },
        "started": match.started.isoformat() if match.started else None,
        "ended": match.ended.isoformat() if match.ended else None,
        "seats": [
            {
                "number": s.number,
                "name": s.public_name,
                "username": s.user.username if s.user_id else None,
                "bot_level": s.bot_level or None,
                "handed_to_bot": s.handed_to_bot,
            }
            for s in seats
        ],
        "moves": [{"number": m.number, "seat": m.seat, "kind": m.kind, "payload": m.payload} for m in moves],
        "result": match.result,
        # A moderator's adjudication ends a game the rules had not ended: its final state has no result.
        "adjudicated": get_engine(match.game).result(match.state) is None,
        "end_reason": match.end_reason,
    }


class RecordError(ValueError):
    """A record that cannot be replayed, or whose replay does not end as recorded."""


def replay_record(record: dict[str, Any]) -> State:
    """The final state of a record's game; raises RecordError when it is not a record of ours."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a match record (format {RECORD_FORMAT!r} expected)")
    try:
        engine = get_engine(record["game"])
        steps = [(m["kind"], int(m["seat"]), m["payload"]) for m in record["moves"]]
        state = last(positions(engine, len(record["seats"]), record["options"], int(record["seed"]), steps))
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"the record cannot be replayed: {error!r}") from None
    except Exception as error:  # an engine refusing a move (IllegalMove) or choking on a forged one
        raise RecordError(f"the record's moves do not replay: {error}") from None
    return state


def check_record(record: dict[str, Any]) -> str:
    """Replay a record and compare the result; returns a line for the player, raises RecordError."""
    state = replay_record(record)
    result = get_engine(record["game"]).result(state)
    recorded = record.get("result")
    if result is None:
        if record.get("adjudicated") and recorded:
            return f"{len(record['moves'])} moves replayed; the game was adjudicated: {recorded.get('reason', '')}"
        raise RecordError("the replayed game is not over, but the record says it finished")
    if result.as_dict() != recorded:
        raise RecordError(f"the replay ends with {result.as_dict()!r}, the record says {recorded!r}")
    return f"{len(record['moves'])} moves replayed; the result matches: {result.reason}"
