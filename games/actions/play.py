"""Moves: a player's or a bot's, checked against the state version, applied under the row lock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from dizzysite import safe_json
from games import clock
from games.actions.bots import queue_bot_moves
from games.actions.clocks import (
    add_turn_time,
    earliest_deadline,
    queue_deadline_task,
    start_turn_clock,
    stop_turn_clock,
)
from games.actions.common import (
    MAX_MOVE_BYTES,
    ActionError,
    MatchOver,
    NotAllowed,
    NotYourTurn,
    StaleVersion,
    check_can_play,
    lock_match,
    save_board_change,
)
from games.engines.base import Engine, IllegalMove, Result
from games.engines.registry import get_spec
from games.events import MatchFinished, MatchStarted, MoveMade, TurnStarted, publish
from games.i18n import tr
from games.models import HISTORY_TAIL, Match, Move, Seat, fill_names, seat_names
from games.reads import engine_of, seat_of, seats_with_users


def parse_move(raw: str | dict[str, Any]) -> dict[str, Any]:
    """A move from a form field (JSON text) or a bot (a dict), checked for shape only.

    Anything the parser or the database could choke on is refused here, before the match is
    locked: deep nesting (RecursionError), non-finite or overlong numbers, NUL characters and lone
    surrogates (PostgreSQL stores neither in the move log)."""
    if isinstance(raw, str):
        if len(raw) > MAX_MOVE_BYTES:
            raise ActionError("That move is too long.")
        try:
            raw = safe_json.loads(raw)
        except ValueError:
            raise ActionError("That move could not be read.") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ActionError("That move could not be read.")
    return raw


def do_move(match_id: int, user: User, version: int, move: str | dict[str, Any]) -> Match:
    """A player's move, submitted with the state version it was chosen on."""
    check_can_play(user)
    move = parse_move(move)
    with transaction.atomic():
        match = lock_match(match_id)
        check_move_fields(match, move)  # a malformed move is a 400 before any seat or turn is looked at
        seats_with_users(match)  # loaded once for the whole move: the seat, the clocks, the events
        seat = seat_of(match, user)
        if seat is None:
            raise NotAllowed("You have no seat in this match.")
        _apply_move(match, seat.number, version, move, by_bot=False)
        return match


def check_move_fields(match: Match, move: dict[str, Any]) -> None:
    """The engine's move vocabulary: a known type and only its fields (extras were stored)."""
    try:
        engine_of(match).check_move_fields(move)
    except IllegalMove as error:
        raise ActionError(tr(error.args[0])) from None


def do_bot_move(match_id: int, seat_number: int, version: int, move: dict[str, Any]) -> Match:
    """A bot seat's move: a normal submission with the version, so it loses cleanly to a race."""
    move = parse_move(move)
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(number=seat_number).first()
        if seat is None or not seat.is_bot:
            raise NotAllowed("That seat is not a bot's.")
        _apply_move(match, seat_number, version, move, by_bot=True)
        return match


def _apply_move(match: Match, seat_number: int, version: int, move: dict[str, Any], *, by_bot: bool) -> None:
    if match.status == Match.Status.OPEN:
        raise ActionError(gettext("This match has not started yet."))
    if match.status != Match.Status.ACTIVE:
        raise MatchOver(gettext("This match is over."))
    if version != match.version:
        raise StaleVersion()
    engine = engine_of(match)
    if seat_number not in engine.to_act(match.state):
        raise NotYourTurn(gettext("It is not your turn."))
    try:
        state, entries = engine.apply(match.state, seat_number, move)
    except IllegalMove as error:  # the engine's words (a Msg for Solitaire Chess) in the player's language
        raise ActionError(tr(error.args[0]) if error.args else str(error)) from None
    record_play(match, engine, Step(seat_number, Move.Kind.MOVE, move, state, entries, by_bot=by_bot))


@dataclass(frozen=True)
class Step:
    """One step of a match's log: the seat it is for, its kind (a move, a timeout, a resignation), the
    move as sent, and the state and log entries it led to."""

    seat: int
    kind: str
    payload: dict[str, Any]
    state: dict[str, Any]
    entries: list[dict[str, Any]]
    by_bot: bool = False


@dataclass(frozen=True)
class Mover:
    """Who made the change the clocks follow: a new turn for them starts their clock again, a bot's
    move does not end their run of timeouts (ruling ALL-4), and a move may add time to their turn."""

    seat: int
    new_turn: bool
    by_bot: bool
    extra_seconds: int


def record_play(match: Match, engine: Engine, step: Step) -> None:
    """A move of the seat's own, by its player or the bot playing it: its clock may gain the game's
    extra time for that kind of move (Flower Field's challenge minute, ruling FF-10)."""
    extra = clock.extra_seconds(get_spec(match.game).live_clock, match.turn_seconds, step.payload.get("type", ""))
    _record(match, engine, step, extra_seconds=extra)


def record_timeout(match: Match, engine: Engine, seat: int, state: dict[str, Any], entries: list[Any]) -> None:
    """The game's own consequence of a seat running out of time (rulings ALL-1, SC-7)."""
    _record(match, engine, Step(seat, Move.Kind.TIMEOUT, {}, state, entries))


def record_resignation(match: Match, engine: Engine, seat: int, entry: dict[str, Any], *, ended: Result | None) -> None:
    """A seat leaves the game (ruling SITE-RESIGN): `ended` is the end the site applies in a game of
    two, where the engine's state has none; None when a bot plays the seat on."""
    _record(match, engine, Step(seat, Move.Kind.RESIGN, {}, match.state, [entry]), ended=ended)


def after_start(match: Match, engine: Engine, *, starter_id: int | None) -> None:
    """A match has its first state (version 0): clocks for the seats to move, "started" and "your turn"
    told, bots queued. `starter_id`: the user whose request started it (None: nobody's, as a
    tournament's pairing)."""
    _after_change(match, engine, mover=None, starter_id=starter_id)


def _record(match: Match, engine: Engine, step: Step, *, extra_seconds: int = 0, ended: Result | None = None) -> None:
    """Store one step of the log and what follows from it."""
    old_key, new_key = engine.turn_key(match.state), engine.turn_key(step.state)
    match.version += 1
    match.state = step.state
    Move.objects.create(
        match=match,
        number=match.version,
        seat=step.seat,
        kind=step.kind,
        payload=step.payload,
        log=step.entries,
        by_bot=step.by_bot,
    )
    match.history_tail = [*match.history_tail, {"number": match.version, "seat": step.seat, "log": step.entries}][
        -HISTORY_TAIL:
    ]
    new_turn = new_key is None or new_key != old_key
    mover = Mover(step.seat, new_turn=new_turn, by_bot=step.by_bot, extra_seconds=extra_seconds)
    _after_change(match, engine, mover=mover, ended=ended)


def _after_change(
    match: Match, engine: Engine, *, mover: Mover | None, starter_id: int | None = None, ended: Result | None = None
) -> None:
    """Save the match, run the seats' clocks, finish it if over, tell the listeners, queue bot seats' moves.

    Called with the match row locked, after every change of state: at the start (no mover) or after a
    step of the log."""
    to_act = set(engine.to_act(match.state))
    result = ended or engine.result(match.state)
    now = timezone.now()
    seats = seats_with_users(match)
    newly_to_act = []
    if result is not None:
        match.status = Match.Status.FINISHED
        match.result = result.as_dict()
        match.end_reason = fill_names(result.reason, seat_names(seats))[:200]
        match.end_reason_words = result.reason_words
        match.ended = now
        to_act = set()
    for seat in seats:
        moved = mover is not None and seat.number == mover.seat
        if moved and not mover.by_bot:
            seat.timeouts_in_row = 0  # ruling ALL-4 counts timeouts in a row: a move of one's own ends the run
        new_turn = not seat.to_act or (moved and mover.new_turn)
        if seat.number in to_act and new_turn:
            newly_to_act.append(seat)
            start_turn_clock(match, seat, now)
        elif seat.number not in to_act:
            stop_turn_clock(seat)
        elif moved and mover.extra_seconds:
            add_turn_time(match, seat, mover.extra_seconds, now)
        seat.to_act = seat.number in to_act
    Seat.objects.bulk_update(
        seats, ["to_act", "turn_started", "deadline", "paused_seconds", "remind_at", "timeouts_in_row"]
    )
    previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
    save_board_change(match, seats=seats)
    queue_deadline_task(match, seats, previous_deadline)

    newly = tuple(seat.number for seat in newly_to_act)
    _announce(match, tuple(seats), ended=result is not None, newly_to_act=newly, mover=mover, starter_id=starter_id)
    if any(seat.is_bot for seat in seats if seat.to_act):
        queue_bot_moves(match)


def _announce(
    match: Match,
    seats: tuple[Seat, ...],
    *,
    ended: bool,
    newly_to_act: tuple[int, ...],
    mover: Mover | None,
    starter_id: int | None,
) -> None:
    """The one place a change of state is published (games.events): ratings rate on MatchFinished,
    notifications write "finished", "started" and "your turn" rows, the live channel tells the boards."""
    if match.version > 0:
        by_bot = bool(mover and mover.by_bot)
        publish(MoveMade(match, match.version, seats=seats, seat=mover and mover.seat, by_bot=by_bot))
    if ended:
        publish(MatchFinished(match, match.version, seats=seats))
    elif match.version == 0:
        publish(MatchStarted(match, 0, seats=seats, starter_id=starter_id, to_move=newly_to_act))
    if newly_to_act:
        publish(TurnStarted(match, match.version, seats=seats, to_move=newly_to_act, mover=mover and mover.seat))
