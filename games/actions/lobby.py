"""Before the start: creating a match (check_* validate, create_match does), joining, leaving, seats."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games.actions.common import (
    ActionError,
    Conflict,
    NotAllowed,
    check_can_play,
    lock_match,
    save_board_change,
    seated_user_ids,
)
from games.actions.play import after_start
from games.engines.base import BadOptions, Engine
from games.engines.registry import get_bots, get_engine
from games.events import BoardChanged, PlayerInvited, publish
from games.models import BOT_LEVELS, Match, Seat, TimeControl
from games.reads import engine_of
from games.seats import SeatSpec


def _check_match_limit(user: User) -> None:
    active = Seat.objects.filter(user=user, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE]).count()
    if active >= settings.DIZZY_MAX_ACTIVE_MATCHES:
        raise Conflict(
            gettext("You are in %(count)d matches already; finish some before starting more.") % {"count": active}
        )


def create_match(
    user: User,
    game: str,
    seats: list[SeatSpec],
    *,
    options: dict[str, Any] | None = None,
    time_preset: str = "daily",
    custom_clock: tuple[int, int, int] | None = None,
    weekend_pause: bool = False,
    spectators_read_chat: bool = False,
    rated: bool = True,
) -> Match:
    check_can_play(user)
    _check_match_limit(user)
    try:
        engine = get_engine(game)
    except (KeyError, ModuleNotFoundError):
        raise ActionError(gettext("There is no such game.")) from None
    try:
        parsed_options = engine.parse_options(options, len(seats))
    except BadOptions as error:
        raise ActionError(str(error)) from None
    check_clock(time_preset, custom_clock)
    seat_rows = check_seats(user, engine, seats)

    turn, periods, period = custom_clock if time_preset == "custom" else TimeControl.figures(time_preset, game)
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            options=parsed_options,
            created_by=user,
            time_preset=time_preset,
            weekend_pause=weekend_pause and time_preset != "live",
            spectators_read_chat=spectators_read_chat,
            rated=rated,
            turn_seconds=turn,
            reserve_periods=periods,
            period_seconds=period,
        )
        for row in seat_rows:
            row.match = match
            row.reserve_left = periods
        Seat.objects.bulk_create(seat_rows)
        for row in seat_rows:
            if row.user_id and not row.accepted:
                publish(PlayerInvited(match, match.version, user=row.user, key=0))
        _start_if_full(match, user)
        if match.status == Match.Status.OPEN:  # a start goes through save_board_change; a new open match not
            publish(
                BoardChanged(match, match.version, match.revision, user_ids=seated_user_ids(match, seats=seat_rows))
            )
    return match


def check_clock(time_preset: str, custom_clock: tuple[int, int, int] | None) -> None:
    if time_preset == "custom":
        if (
            custom_clock is None
            or custom_clock[0] < 60
            or custom_clock[1] < 0
            or custom_clock[2] < 60 * (custom_clock[1] > 0)
        ):
            raise ActionError(gettext("A custom clock needs at least a minute per turn and per reserve period."))
    elif time_preset not in TimeControl.PRESETS:
        raise ActionError(gettext("Choose one of the time controls offered."))


def check_seats(user: User, engine: Engine, seats: list[SeatSpec]) -> list[Seat]:
    """The new match's seats, unsaved: the creator's, bots, invitations and open seats."""
    if [s.kind for s in seats].count("me") != 1:
        raise ActionError(gettext("You take exactly one seat in a match you create."))
    levels = {level for level, _ in BOT_LEVELS} & set(get_bots(engine.slug))
    invited: set[int] = set()
    seat_rows = []
    for number, spec in enumerate(seats):
        row = Seat(number=number)
        if spec.kind == "me":
            row.user, row.accepted = user, True
        elif spec.kind == "bot":
            if spec.value not in levels:
                raise ActionError(
                    gettext("Seat %(number)d: %(game)s has no bot of level %(level)r.")
                    % {"number": number + 1, "game": engine.name, "level": spec.value}
                )
            row.bot_level = spec.value
        elif spec.kind == "invite":
            row.user = _check_invitee(user, spec.value, number, invited)
            invited.add(row.user.pk)
        elif spec.kind != "open":
            message = gettext("Seat %(number)d: choose open, a bot or a player to invite.")
            raise ActionError(message % {"number": number + 1})
        seat_rows.append(row)
    return seat_rows


def _check_invitee(user: User, name: str, number: int, invited: set[int]) -> User:
    invitee = User.objects.filter(username__iexact=name.strip(), is_active=True).first()
    if invitee is None:
        message = gettext("Seat %(number)d: there is no player called %(name)r.")
        raise ActionError(message % {"number": number + 1, "name": name})
    if invitee.pk == user.pk or invitee.pk in invited:
        message = gettext("Seat %(number)d: %(name)s already has a seat.")
        raise ActionError(message % {"number": number + 1, "name": invitee.username})
    if invitee.blocks.filter(blocked=user).exists():
        raise ActionError(
            gettext("Seat %(number)d: %(name)s does not accept your invitations.")
            % {"number": number + 1, "name": invitee.username}
        )
    return invitee


def do_join(match_id: int, user: User) -> Match:
    """Accept an invitation, or take the first open seat."""
    check_can_play(user)
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(user=user).first()
        if seat is not None and seat.accepted:  # before the status: one's own running match too
            raise Conflict(gettext("You already have a seat in this match."))
        if match.status != Match.Status.OPEN:
            raise Conflict(gettext("This match is not taking players."))
        if seat is None:
            _check_match_limit(user)
            if match.created_by.blocks.filter(blocked=user).exists():
                raise NotAllowed("You cannot join this player's matches.")
            seat = match.seats.filter(user__isnull=True, bot_level="").first()
            if seat is None:
                raise Conflict(gettext("There is no open seat left."))
            seat.user = user
        seat.accepted = True
        seat.save(update_fields=["user", "accepted"])
        save_board_change(match, fields=[])
        _start_if_full(match, user)
        return match


def do_leave(match_id: int, user: User) -> Match:
    """Leave before the start (or decline an invitation): the seat opens for anyone."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(gettext("You have no seat in this match."))
        if match.status != Match.Status.OPEN:
            raise Conflict(gettext("The match has started; you can no longer leave it."))
        if match.created_by_id == user.pk:
            raise Conflict(gettext("You created this match: cancel it instead."))
        seat.user, seat.accepted = None, False
        seat.save(update_fields=["user", "accepted"])
        save_board_change(match, fields=[])
        return match


def do_cancel(match_id: int, user: User) -> Match:
    with transaction.atomic():
        match = lock_match(match_id)
        if match.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the match can cancel it.")
        if match.status != Match.Status.OPEN:
            raise ActionError(gettext("Only a match that has not started can be cancelled."))
        match.status = Match.Status.CANCELLED
        match.ended = timezone.now()
        save_board_change(match, fields=["status", "ended"])
        return match


def do_fill_seat(match_id: int, user: User, seat_number: int, spec: SeatSpec) -> Match:
    """The creator puts a bot in an open seat, invites a player to it, or opens it again."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the match can change its seats.")
        if match.status != Match.Status.OPEN:
            raise ActionError(gettext("The match has started."))
        seat = match.seats.filter(number=seat_number).first()
        if seat is None or seat.user_id == user.pk:
            raise ActionError(gettext("There is no such seat to change."))
        if seat.user_id is not None and seat.accepted:
            raise ActionError(gettext("A player has taken that seat."))
        engine = engine_of(match)
        seat.user, seat.bot_level, seat.accepted = None, "", False
        if spec.kind == "bot":
            if spec.value not in get_bots(engine.slug) or spec.value not in dict(BOT_LEVELS):
                raise ActionError(
                    gettext("%(game)s has no bot of level %(level)r.") % {"game": engine.name, "level": spec.value}
                )
            seat.bot_level = spec.value
        elif spec.kind == "invite":
            invitee = User.objects.filter(username__iexact=spec.value.strip(), is_active=True).first()
            if invitee is None:
                raise ActionError(gettext("There is no player called %(name)r.") % {"name": spec.value})
            if match.seats.filter(user=invitee).exists():
                raise ActionError(gettext("%(name)s already has a seat.") % {"name": invitee.username})
            if invitee.blocks.filter(blocked=user).exists():
                raise ActionError(gettext("%(name)s does not accept your invitations.") % {"name": invitee.username})
            seat.user = invitee
        elif spec.kind != "open":
            raise ActionError(gettext("Choose open, a bot or a player to invite."))
        seat.save(update_fields=["user", "bot_level", "accepted"])
        if seat.user_id:
            publish(PlayerInvited(match, match.version, user=seat.user, key=match.revision))
        save_board_change(match, fields=[])
        _start_if_full(match, user)
        return match


def _start_if_full(match: Match, starter: User) -> None:
    """Start the match once every seat is taken (by `starter`'s request). Called with the row locked."""
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
    after_start(match, engine, starter_id=starter.pk)
