"""Replaying a match: the seed and the move log through the engine rebuild every position (ALL-2).

One loop for the whole site (games/replay.py): the public replay page, the JSON record and
`manage.py replay` here, and the moderators' replay in moderation/admin_matches.py all step through
`positions`.
"""

from __future__ import annotations

import json
from typing import Any

from django.core import signing
from django.utils.crypto import constant_time_compare

from games.engines.base import State
from games.engines.registry import get_engine
from games.models import Match, Move, fill_names
from games.reads import match_moves
from games.replay import Step, last, match_steps, positions, state_after  # noqa: F401 (used here and by importers)
from moderation.models import ModerationLog

RECORD_FORMAT = "dizzysite-match-record/1"

# The parts of a record that `manage.py replay` names when they do not match their signed digests.
RECORD_PARTS = ("moves", "result", "players")
SIGNING_SALT = "dizzysite.match-record"


def _canonical(data: Any) -> str:
    """One text per JSON value (sorted keys, no spaces): what is signed."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(data: Any) -> str:
    """An HMAC of the data with the server's key (SECRET_KEY, through django.core.signing)."""
    return signing.Signer(salt=SIGNING_SALT).signature(_canonical(data))


def _signed(digest: Any, data: Any) -> bool:
    """Whether `digest` is the data's HMAC with the server's key or one of its SECRET_KEY_FALLBACKS
    (records keep verifying through a key rotation), compared in constant time."""
    signer = signing.Signer(salt=SIGNING_SALT)
    text = _canonical(data)
    keys = [signer.key, *signer.fallback_keys]
    return isinstance(digest, str) and any(constant_time_compare(digest, signer.signature(text, key)) for key in keys)


def _part(record: dict[str, Any], name: str) -> Any:
    """What each signed part covers: the move list, how the match ended, who sat where."""
    if name == "moves":
        return record.get("moves")
    if name == "result":
        return {key: record.get(key) for key in ("status", "ended_by", "result", "adjudicated", "end_reason")}
    return record.get("seats")


def ended_by(match: Match, final: State | None, moves: list[Move]) -> str:
    """How the match ended: "rules" (the engine's result), "adjudicated" (a moderator's adjudication,
    as the moderation log says), "aborted", "resigned" (a player resigned a two-player game, ruling
    SITE-RESIGN), or "other" (ended without a result of the rules)."""
    if match.status == Match.Status.ABORTED:
        return "aborted"
    if final is not None and get_engine(match.game).result(final) is not None:
        return "rules"
    if any(m.kind == Move.Kind.RESIGN for m in moves):
        return "resigned"
    if ModerationLog.objects.filter(match=match, action__startswith="adjudicate").exists():
        return "adjudicated"
    return "other"


def build_record(match: Match) -> dict[str, Any]:
    """An ended match as JSON data: everything needed to replay it and check its result, signed."""
    seats = list(match.seats.select_related("user").order_by("number"))
    moves = match_moves(match)
    how = ended_by(match, match.state, moves)
    record = {
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
        "status": match.status,
        "ended_by": how,
        "result": match.result,
        "adjudicated": how == "adjudicated",
        "end_reason": match.end_reason,
    }
    record["digests"] = {name: _digest(_part(record, name)) for name in RECORD_PARTS}
    record["signature"] = _digest({key: value for key, value in record.items() if key != "signature"})
    return record


class RecordError(ValueError):
    """A record that cannot be replayed, or whose replay does not end as recorded."""


class RecordMismatch(RecordError):
    """A record that is not what the server signed, or does not replay as it says: `parts` names what
    does not match ("moves", "result", "players", "signature")."""

    def __init__(self, parts: list[str], reasons: list[str]) -> None:
        self.parts = parts
        super().__init__("; ".join(reasons))


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
        raise RecordMismatch(["moves"], [f"the record's moves do not replay: {error}"]) from None
    return state


def record_names(record: dict[str, Any]) -> dict[str, str]:
    """{p0}.. -> each seat's username (a bot's seat name), for the lines `replay` prints."""
    seats = record.get("seats") if isinstance(record.get("seats"), list) else []
    return {
        f"p{index}": str(seat.get("username") or seat.get("name") or f"seat {index + 1}")
        for index, seat in enumerate(seats)
        if isinstance(seat, dict)
    }


def _signature_mismatches(record: dict[str, Any]) -> tuple[list[str], list[str]]:
    parts, reasons = [], []
    digests = record.get("digests") if isinstance(record.get("digests"), dict) else {}
    for name in RECORD_PARTS:
        if not _signed(digests.get(name), _part(record, name)):
            parts.append(name)
            reasons.append(f"the {name} are not the ones this server signed")
    unsigned = {key: value for key, value in record.items() if key != "signature"}
    if not _signed(record.get("signature"), unsigned):
        parts.append("signature")
        reasons.append("the record's signature is missing or not this server's")
    return parts, reasons


def _result_mismatch(record: dict[str, Any], state: State) -> str:
    """Why the replayed end is not the recorded one, or "" when it is."""
    result = get_engine(record["game"]).result(state)
    recorded = record.get("result")
    how = record.get("ended_by") or ("adjudicated" if record.get("adjudicated") else "rules")
    if how == "rules":
        if result is None:
            return "the replayed game is not over, but the record says the rules ended it"
        if result.as_dict() != recorded:
            return f"the replay ends with {result.as_dict()!r}, the record says {recorded!r}"
        return ""
    if result is not None:
        return f"the replayed game ended by the rules ({result.reason}), but the record says it was {how}"
    return ""


def check_record(record: dict[str, Any]) -> str:
    """Check a record's signed digests and replay it; returns a line for the player, raises
    RecordError (a RecordMismatch naming the parts that do not match)."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a match record (format {RECORD_FORMAT!r} expected)")
    parts, reasons = _signature_mismatches(record)
    names = record_names(record)
    try:
        state = replay_record(record)
    except RecordMismatch as error:  # the moves do not replay: no result to compare
        raise RecordMismatch(_ordered([*parts, "moves"]), [fill_names(str(error), names), *reasons]) from None
    mismatch = _result_mismatch(record, state)
    if mismatch:
        parts, reasons = [*parts, "result"], [fill_names(mismatch, names), *reasons]
    if parts:
        raise RecordMismatch(_ordered(parts), reasons)
    count, how = len(record["moves"]), record.get("ended_by")
    players = ", ".join(names.values())
    if how == "rules":
        reason = fill_names(get_engine(record["game"]).result(state).reason, names)
        return f"{players}: {count} moves replayed; the result matches: {reason}"
    reason = fill_names(record.get("end_reason") or "", names)
    return f"{players}: {count} moves replayed; the match was {how}: {reason}"


def _ordered(parts: list[str]) -> list[str]:
    return [name for name in (*RECORD_PARTS, "signature") if name in parts]
