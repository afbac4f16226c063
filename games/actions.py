"""Every change to a match: check, then do, in one transaction with the match row locked.

Views and tasks call these and nothing else changes matches. Side effects (bot moves, emails) are
queued with on_commit, so they see the committed state and never run for a rolled-back change.
An ActionError's message is shown to the player as it is, and nothing has changed.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.engines.base import BadOptions, Engine, IllegalMove
from games.engines.registry import get_engine
from games.models import BOT_LEVELS, Match, Move, Seat, TimeControl, fill_names

MAX_MOVE_BYTES = 4000


class ActionError(Exception):
    """The request is refused; nothing changed. The message is for the player."""

    status = 400


class NotAllowed(ActionError):
    status = 403


class StaleVersion(ActionError):
    """Someone else moved first (or the form was submitted twice)."""

    status = 409

    def __init__(self) -> None:
        super().__init__("The board has changed since you loaded it. Here is the current board.")


@dataclass
class SeatSpec:
    """How the match creator fills a seat: "me", "open", "bot" (with a level) or "invite" (a username)."""

    kind: str
    value: str = ""


def engine_of(match: Match) -> Engine:
    return get_engine(match.game)


def _lock(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ActionError("There is no such match.") from None


def check_can_play(user: User) -> None:
    if not user.is_authenticated or not user.is_active:
        raise NotAllowed("Please log in first.")
    if not user.has_verified_email():
        raise NotAllowed("Please verify your email address first: we sent you a link when you signed up.")


def _check_match_limit(user: User) -> None:
    active = Seat.objects.filter(
        user=user, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE]
    ).count()
    if active >= settings.DIZZY_MAX_ACTIVE_MATCHES:
        raise ActionError(f"You are in {active} matches already; finish some before starting more.")


# --- the lobby ----------------------------------------------------------------------------------


def create_match(
    user: User,
    game: str,
    seats: list[SeatSpec],
    options: dict[str, Any] | None = None,
    time_preset: str = "daily",
) -> Match:
    check_can_play(user)
    _check_match_limit(user)
    try:
        engine = get_engine(game)
    except (KeyError, ModuleNotFoundError):
        raise ActionError("There is no such game.") from None
    try:
        parsed_options = engine.parse_options(options, len(seats))
    except BadOptions as error:
        raise ActionError(str(error)) from None
    if time_preset not in TimeControl.PRESETS:
        raise ActionError("Choose one of the time controls offered.")
    if [s.kind for s in seats].count("me") != 1:
        raise ActionError("You take exactly one seat in a match you create.")
    levels = {level for level, _ in BOT_LEVELS} & set(engine.bots)
    invited: set[int] = set()
    seat_rows = []
    for number, spec in enumerate(seats):
        row = Seat(number=number)
        if spec.kind == "me":
            row.user, row.accepted = user, True
        elif spec.kind == "bot":
            if spec.value not in levels:
                raise ActionError(f"Seat {number + 1}: {engine.name} has no bot of level {spec.value!r}.")
            row.bot_level = spec.value
        elif spec.kind == "invite":
            invitee = User.objects.filter(username__iexact=spec.value.strip(), is_active=True).first()
            if invitee is None:
                raise ActionError(f"Seat {number + 1}: there is no player called {spec.value!r}.")
            if invitee.pk == user.pk or invitee.pk in invited:
                raise ActionError(f"Seat {number + 1}: {invitee.username} already has a seat.")
            invited.add(invitee.pk)
            row.user = invitee
        elif spec.kind != "open":
            raise ActionError(f"Seat {number + 1}: choose open, a bot or a player to invite.")
        seat_rows.append(row)

    turn, periods, period = TimeControl.figures(time_preset, game)
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            options=parsed_options,
            created_by=user,
            time_preset=time_preset,
            turn_seconds=turn,
            reserve_periods=periods,
            period_seconds=period,
        )
        for row in seat_rows:
            row.match = match
            row.reserve_left = periods
        Seat.objects.bulk_create(seat_rows)
        _start_if_full(match)
    return match


def do_join(match_id: int, user: User) -> Match:
    """Accept an invitation, or take the first open seat."""
    check_can_play(user)
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.OPEN:
            raise ActionError("This match is not taking players.")
        seat = match.seats.filter(user=user).first()
        if seat is not None and seat.accepted:
            raise ActionError("You already have a seat in this match.")
        if seat is None:
            _check_match_limit(user)
            seat = match.seats.filter(user__isnull=True, bot_level="").first()
            if seat is None:
                raise ActionError("There is no open seat left.")
            seat.user = user
        seat.accepted = True
        seat.save(update_fields=["user", "accepted"])
        match.revision += 1
        match.save(update_fields=["revision"])
        _start_if_full(match)
        return match


def do_leave(match_id: int, user: User) -> Match:
    """Leave before the start (or decline an invitation): the seat opens for anyone."""
    with transaction.atomic():
        match = _lock(match_id)
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise ActionError("You have no seat in this match.")
        if match.status != Match.Status.OPEN:
            raise ActionError("The match has started; you can no longer leave it.")
        if match.created_by_id == user.pk:
            raise ActionError("You created this match: cancel it instead.")
        seat.user, seat.accepted = None, False
        seat.save(update_fields=["user", "accepted"])
        match.revision += 1
        match.save(update_fields=["revision"])
        return match


def do_cancel(match_id: int, user: User) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        if match.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the match can cancel it.")
        if match.status != Match.Status.OPEN:
            raise ActionError("Only a match that has not started can be cancelled.")
        match.status = Match.Status.CANCELLED
        match.ended = timezone.now()
        match.revision += 1
        match.save(update_fields=["status", "ended", "revision"])
        return match


def do_fill_seat(match_id: int, user: User, seat_number: int, spec: SeatSpec) -> Match:
    """The creator puts a bot in an open seat, invites a player to it, or opens it again."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the match can change its seats.")
        if match.status != Match.Status.OPEN:
            raise ActionError("The match has started.")
        seat = match.seats.filter(number=seat_number).first()
        if seat is None or seat.user_id == user.pk:
            raise ActionError("There is no such seat to change.")
        if seat.user_id is not None and seat.accepted:
            raise ActionError("A player has taken that seat.")
        engine = engine_of(match)
        seat.user, seat.bot_level, seat.accepted = None, "", False
        if spec.kind == "bot":
            if spec.value not in engine.bots or spec.value not in dict(BOT_LEVELS):
                raise ActionError(f"{engine.name} has no bot of level {spec.value!r}.")
            seat.bot_level = spec.value
        elif spec.kind == "invite":
            invitee = User.objects.filter(username__iexact=spec.value.strip(), is_active=True).first()
            if invitee is None:
                raise ActionError(f"There is no player called {spec.value!r}.")
            if match.seats.filter(user=invitee).exists():
                raise ActionError(f"{invitee.username} already has a seat.")
            seat.user = invitee
        elif spec.kind != "open":
            raise ActionError("Choose open, a bot or a player to invite.")
        seat.save(update_fields=["user", "bot_level", "accepted"])
        match.revision += 1
        match.save(update_fields=["revision"])
        _start_if_full(match)
        return match


def _start_if_full(match: Match) -> None:
    """Start the match once every seat is taken. Called with the match row locked."""
    seats = list(match.seats.all())
    if not all(seat.is_filled for seat in seats):
        return
    engine = engine_of(match)
    seed = secrets.randbits(128)
    match.seed = str(seed)
    match.state = engine.new_state(len(seats), match.options, seed)
    match.version = 0
    match.status = Match.Status.ACTIVE
    match.started = timezone.now()
    _after_state_change(match, engine)


# --- play ---------------------------------------------------------------------------------------


def parse_move(raw: str | dict[str, Any]) -> dict[str, Any]:
    """A move from a form field (JSON text) or a bot (a dict), checked for shape only."""
    if isinstance(raw, str):
        if len(raw) > MAX_MOVE_BYTES:
            raise ActionError("That move is too long.")
        try:
            raw = json.loads(raw)
        except ValueError:
            raise ActionError("That move could not be read.") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ActionError("That move could not be read.")
    return raw


def seat_of(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk and s.accepted), None)


def do_move(match_id: int, user: User, version: int, move: str | dict[str, Any]) -> Match:
    """A player's move, submitted with the state version it was chosen on."""
    check_can_play(user)
    move = parse_move(move)
    with transaction.atomic():
        match = _lock(match_id)
        seat = seat_of(match, user)
        if seat is None:
            raise NotAllowed("You have no seat in this match.")
        _apply_move(match, seat.number, version, move, by_bot=False)
        return match


def do_bot_move(match_id: int, seat_number: int, version: int, move: dict[str, Any]) -> Match:
    """A bot seat's move: a normal submission with the version, so it loses cleanly to a race."""
    move = parse_move(move)
    with transaction.atomic():
        match = _lock(match_id)
        seat = match.seats.filter(number=seat_number).first()
        if seat is None or not seat.is_bot:
            raise NotAllowed("That seat is not a bot's.")
        _apply_move(match, seat_number, version, move, by_bot=True)
        return match


def _apply_move(match: Match, seat_number: int, version: int, move: dict[str, Any], by_bot: bool) -> None:
    if match.status != Match.Status.ACTIVE:
        raise ActionError(
            "This match has not started yet." if match.status == Match.Status.OPEN else "This match is over."
        )
    if version != match.version:
        raise StaleVersion()
    engine = engine_of(match)
    if seat_number not in engine.to_act(match.state):
        raise ActionError("It is not your turn.")
    try:
        state, entries = engine.apply(match.state, seat_number, move)
    except IllegalMove as error:
        raise ActionError(str(error)) from None
    _record(match, engine, seat_number, Move.Kind.MOVE, move, state, entries, by_bot)


def do_timeout(match_id: int, seat_number: int, version: int) -> Match | None:
    """A deadline passed for this seat at this version: the game's own consequence (SC-7)."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE or match.version != version:
            return None  # the match moved on: nothing to do (safe to run twice)
        engine = engine_of(match)
        if seat_number not in engine.to_act(match.state):
            return None
        state, entries = engine.apply_timeout(match.state, seat_number)
        _record(match, engine, seat_number, Move.Kind.TIMEOUT, {}, state, entries, by_bot=False)
        return match


def _record(
    match: Match,
    engine: Engine,
    seat_number: int,
    kind: str,
    payload: dict[str, Any],
    state: dict[str, Any],
    entries: list[dict[str, Any]],
    by_bot: bool,
) -> None:
    match.version += 1
    match.state = state
    Move.objects.create(
        match=match, number=match.version, seat=seat_number, kind=kind, payload=payload, log=entries, by_bot=by_bot
    )
    _after_state_change(match, engine)


def _after_state_change(match: Match, engine: Engine) -> None:
    """Save the match, mark who is to act, finish it if over, and queue bot seats' moves."""
    match.revision += 1
    to_act = engine.to_act(match.state)
    result = engine.result(match.state)
    now = timezone.now()
    if result is not None:
        match.status = Match.Status.FINISHED
        match.result = result.as_dict()
        match.end_reason = fill_names(result.reason, match.seat_names())[:200]
        match.ended = now
        match.deadline = None
        to_act = []
    else:
        match.deadline = now + timedelta(seconds=match.turn_seconds)
    match.save()
    match.seats.update(to_act=False)
    if to_act:
        match.seats.filter(number__in=to_act).update(to_act=True)
        if match.seats.filter(number__in=to_act).exclude(bot_level="").exists():
            from games.tasks import play_bot_moves

            play_bot_moves.delay_on_commit(match.pk, match.version)


def choose_bot_move(match: Match, seat_number: int, level: str) -> dict[str, Any]:
    """A bot decides from its seat's view and legal moves only; it never sees the state."""
    engine = engine_of(match)
    view = engine.view(match.state, seat_number)
    legal = engine.legal_moves(match.state, seat_number)
    bot = engine.bots.get(level) or engine.bots["random"]
    rng = random.Random(f"bot:{match.pk}:{match.version}:{seat_number}")
    return bot(view, legal, rng)


def do_abort(match_id: int, by_user: User, reason: str) -> Match:
    """A moderator stops a match: nobody wins."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
            raise ActionError("Only an open or running match can be aborted.")
        match.status = Match.Status.ABORTED
        match.ended = timezone.now()
        match.deadline = None
        match.end_reason = (reason or f"Aborted by {by_user.username}")[:200]
        match.revision += 1
        match.save()
        match.seats.update(to_act=False)
        return match


def matches_for(user: User) -> Q:
    return Q(seats__user=user)
