"""Changes to a match's play, seats and clocks: check, then do, in one transaction with the match
row locked. Views, tasks and moderators' actions call these.

One other writer touches a match: moderation/actions.py raises the revision for the chat (through
save_board_change); a player's presence on the board lives in the cache (games/presence.py). Side effects (bot
moves, emails) are queued with on_commit, so they see the committed state and never run for a
rolled-back change. An ActionError's message is shown to the player as it is, and nothing has changed.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from dizzysite import safe_json
from games import clock
from games.engines.base import BadOptions, Engine, IllegalMove
from games.engines.registry import get_engine, get_spec
from games.i18n import tr
from games.models import BOT_LEVELS, HISTORY_TAIL, Match, Move, Seat, TimeControl, fill_names, seat_names
from notifications.models import Kind
from notifications.service import notify
from ratings.actions import do_rate_finished_match

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


def save_board_change(match: Match, fields: list[str] | None = None) -> None:
    """Save the match (these `fields`, or all of it) with its revision one higher: the board changed.

    Idle polls compare Match.revision, so it must grow at every change and never repeat or go back,
    even for a caller that holds no row lock: the database adds one to what it stores (F), not to
    a value this process read earlier. Every writer of the revision goes through here."""
    match.revision = F("revision") + 1
    match.save(update_fields=None if fields is None else [*fields, "revision"])
    match.refresh_from_db(fields=["revision"])


def _lock(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ActionError(gettext("There is no such match.")) from None


def check_can_play(user: User) -> None:
    if not user.is_authenticated or not user.is_active:
        raise NotAllowed("Please log in first.")
    if not user.has_verified_email():
        raise NotAllowed("Please verify your email address first: we sent you a link when you signed up.")


def _check_match_limit(user: User) -> None:
    active = Seat.objects.filter(user=user, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE]).count()
    if active >= settings.DIZZY_MAX_ACTIVE_MATCHES:
        raise ActionError(
            gettext("You are in %(count)d matches already; finish some before starting more.") % {"count": active}
        )


# --- the lobby ----------------------------------------------------------------------------------


def create_match(
    user: User,
    game: str,
    seats: list[SeatSpec],
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
                notify(match, row.user, Kind.INVITED, 0)
        _start_if_full(match)
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
    levels = {level for level, _ in BOT_LEVELS} & set(engine.bots)
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
        match = _lock(match_id)
        if match.status != Match.Status.OPEN:
            raise ActionError(gettext("This match is not taking players."))
        seat = match.seats.filter(user=user).first()
        if seat is not None and seat.accepted:
            raise ActionError(gettext("You already have a seat in this match."))
        if seat is None:
            _check_match_limit(user)
            if match.created_by.blocks.filter(blocked=user).exists():
                raise NotAllowed("You cannot join this player's matches.")
            seat = match.seats.filter(user__isnull=True, bot_level="").first()
            if seat is None:
                raise ActionError(gettext("There is no open seat left."))
            seat.user = user
        seat.accepted = True
        seat.save(update_fields=["user", "accepted"])
        save_board_change(match, [])
        _start_if_full(match)
        return match


def do_leave(match_id: int, user: User) -> Match:
    """Leave before the start (or decline an invitation): the seat opens for anyone."""
    with transaction.atomic():
        match = _lock(match_id)
        seat = match.seats.filter(user=user).first()
        if seat is None:
            raise ActionError(gettext("You have no seat in this match."))
        if match.status != Match.Status.OPEN:
            raise ActionError(gettext("The match has started; you can no longer leave it."))
        if match.created_by_id == user.pk:
            raise ActionError(gettext("You created this match: cancel it instead."))
        seat.user, seat.accepted = None, False
        seat.save(update_fields=["user", "accepted"])
        save_board_change(match, [])
        return match


def do_cancel(match_id: int, user: User) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        if match.created_by_id != user.pk:
            raise NotAllowed("Only the player who created the match can cancel it.")
        if match.status != Match.Status.OPEN:
            raise ActionError(gettext("Only a match that has not started can be cancelled."))
        match.status = Match.Status.CANCELLED
        match.ended = timezone.now()
        save_board_change(match, ["status", "ended"])
        return match


def do_fill_seat(match_id: int, user: User, seat_number: int, spec: SeatSpec) -> Match:
    """The creator puts a bot in an open seat, invites a player to it, or opens it again."""
    with transaction.atomic():
        match = _lock(match_id)
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
            if spec.value not in engine.bots or spec.value not in dict(BOT_LEVELS):
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
            notify(match, seat.user, Kind.INVITED, match.revision)
        save_board_change(match, [])
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


def seat_of(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk and s.accepted and not s.handed_to_bot), None)


def do_move(match_id: int, user: User, version: int, move: str | dict[str, Any]) -> Match:
    """A player's move, submitted with the state version it was chosen on."""
    check_can_play(user)
    move = parse_move(move)
    with transaction.atomic():
        match = _lock(match_id)
        prefetch_related_objects([match], Prefetch("seats", queryset=Seat.objects.select_related("user")))
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
        started = match.status != Match.Status.OPEN
        raise ActionError(gettext("This match is over.") if started else gettext("This match has not started yet."))
    if version != match.version:
        raise StaleVersion()
    engine = engine_of(match)
    if seat_number not in engine.to_act(match.state):
        raise ActionError(gettext("It is not your turn."))
    try:
        state, entries = engine.apply(match.state, seat_number, move)
    except IllegalMove as error:  # the engine's words (a Msg for Solitaire Chess) in the player's language
        raise ActionError(tr(error.args[0]) if error.args else str(error)) from None
    _record(match, engine, seat_number, Move.Kind.MOVE, move, state, entries, by_bot)


def _engine_timeout(match: Match, engine: Engine, seat_number: int) -> None:
    """The game's own consequence of running out of time, recorded as a timeout move (replayable)."""
    state, entries = engine.apply_timeout(match.state, seat_number)
    _record(match, engine, seat_number, Move.Kind.TIMEOUT, {}, state, entries, by_bot=False)


TIMEOUTS_BEFORE_BOT = 3  # ruling ALL-4


def do_deadlines(match_id: int, version: int) -> list[str]:
    """Apply what passed deadlines mean for this match, as the sweep found it at `version`.

    First a late seat spends reserve periods; with none left, the game's consequence: the engine's
    (lost on time, SC-7) or, for the Dizzy games, a bot plays the late turn (ALL-4), and after three
    timeouts in a row the bot keeps the seat. Returns what happened, for the log."""
    done: list[str] = []
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE or match.version != version:
            return done  # moved on since the sweep looked: nothing to do
        now = timezone.now()
        engine = engine_of(match)
        seats = list(match.seats.select_related("user"))
        late = []
        for seat in seats:
            if not seat.to_act or seat.deadline is None or seat.deadline > now:
                continue
            if seat.is_bot:  # its task was lost (a worker died, a locked database): ask again
                seat.deadline = now + timedelta(seconds=BOT_GRACE_SECONDS)
                seat.save(update_fields=["deadline"])
                _queue_bot_moves(match)
                done.append(f"asked bot seat {seat.number} again")
                continue
            while seat.deadline <= now and seat.reserve_left > 0:
                seat.reserve_left -= 1
                seat.deadline = clock.add_clock_time(
                    seat.deadline, match.period_seconds, match.weekend_pause, _seat_zone(seat)
                )
                done.append(f"seat {seat.number} spent a reserve period")
            seat.save(update_fields=["reserve_left", "deadline"])
            if seat.deadline <= now:
                late.append(seat.number)
        previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
        if done:  # a reserve period started (or a bot was asked again): the board's clock moved
            save_board_change(match, ["deadline"])
        else:
            match.save(update_fields=["deadline"])
        if not late:  # a consequence below runs the clocks (and queues) again
            queue_deadline_task(match, seats, previous_deadline)
        for number in late:
            if match.status != Match.Status.ACTIVE or number not in engine.to_act(match.state):
                continue
            seat = next(s for s in seats if s.number == number)
            if engine.timeout_policy == "engine":
                _engine_timeout(match, engine, number)
                done.append(f"seat {number} timed out")
                continue
            _bot_plays_late_turn(match, engine, seat)
            done.append(f"a bot played seat {number}'s late turn")
    return done


def _bot_plays_late_turn(match: Match, engine: Engine, seat: Seat) -> None:
    """Ruling ALL-4: a bot plays the whole late turn; the third timeout in a row gives it the seat."""
    level = "normal" if "normal" in engine.bots else "random"
    key = engine.turn_key(match.state)
    first = True
    for _ in range(200):  # one turn's decisions
        if match.status != Match.Status.ACTIVE or seat.number not in engine.to_act(match.state):
            break
        if not first and (key is None or engine.turn_key(match.state) != key):
            break
        move = choose_bot_move(match, seat.number, level)
        state, entries = engine.apply(match.state, seat.number, move)
        if first:
            entries = [
                {"text": f"{{p{seat.number}}} ran out of time: a bot plays this turn.", "audience": "all"}
            ] + entries
        first = False
        _record(match, engine, seat.number, Move.Kind.MOVE, move, state, entries, by_bot=True)
    seat.refresh_from_db()
    seat.timeouts_in_row += 1
    if seat.timeouts_in_row >= TIMEOUTS_BEFORE_BOT and not seat.handed_to_bot:
        seat.handed_to_bot, seat.bot_level = True, level
        seat.save(update_fields=["timeouts_in_row", "handed_to_bot", "bot_level"])
        notify(match, seat.user, Kind.HANDED_TO_BOT, match.version)
        if seat.to_act:
            _queue_bot_moves(match)
    else:
        seat.save(update_fields=["timeouts_in_row"])


def do_reminders(match_id: int) -> int:
    """Queue the "time is running out" emails that are due in this match (once per turn)."""
    sent = 0
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE:
            return 0
        for seat in match.seats.filter(to_act=True, remind_at__lte=timezone.now()).select_related("user"):
            seat.remind_at = None
            seat.save(update_fields=["remind_at"])
            if seat.user_id and not seat.is_bot and notify(match, seat.user, Kind.REMINDER, match.version):
                sent += 1
    return sent


# --- vacation ------------------------------------------------------------------------------------

VACATION_DAYS_PER_YEAR = 14


def vacation_seconds_left(user: User, now=None) -> int:
    now = now or timezone.now()
    used = user.vacation_seconds_used if user.vacation_year == now.year else 0
    if user.vacation_started is not None:
        used += int((now - user.vacation_started).total_seconds())
    return max(0, VACATION_DAYS_PER_YEAR * 86400 - used)


def start_vacation(user: User) -> None:
    """Pause the player's clocks in every slow match (not live ones)."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_started is not None:
            raise ActionError(gettext("Your vacation has already started."))
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_seconds_used = now.year, 0
        if vacation_seconds_left(user, now) <= 0:
            raise ActionError(gettext("You have used all your vacation days this year."))
        user.vacation_started = now
        user.save(update_fields=["vacation_started", "vacation_year", "vacation_seconds_used"])

        def pause(match: Match, seat: Seat) -> None:
            if seat.deadline is not None:
                seat.paused_seconds = clock.clock_seconds_between(
                    now, seat.deadline, match.weekend_pause, _seat_zone(seat)
                )
                seat.deadline = seat.remind_at = None

        _change_clocks(user, pause)


def end_vacation(user: User) -> None:
    """Run the player's paused clocks again from where they stopped."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.vacation_started is None:
            return
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_seconds_used = now.year, 0
        user.vacation_seconds_used += int((now - user.vacation_started).total_seconds())
        user.vacation_started = None
        user.save(update_fields=["vacation_started", "vacation_year", "vacation_seconds_used"])

        def resume(match: Match, seat: Seat) -> None:
            if seat.paused_seconds is not None:
                seat.deadline = clock.add_clock_time(now, seat.paused_seconds, match.weekend_pause, _seat_zone(seat))
                seat.paused_seconds = None
                set_reminder(match, seat, now)

        _change_clocks(user, resume)


def _change_clocks(user: User, change) -> None:
    """Apply `change(match, seat)` to the user's running clocks in slow matches, one match locked at a time."""
    for match_id in _slow_matches_to_act(user):
        match = _lock(match_id)
        seats = list(match.seats.select_related("user"))
        for seat in seats:
            if seat.user_id == user.pk and seat.to_act:
                change(match, seat)
                seat.save(update_fields=["paused_seconds", "deadline", "remind_at"])
        previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
        save_board_change(match, ["deadline"])
        queue_deadline_task(match, seats, previous_deadline)


def _slow_matches_to_act(user: User) -> list[int]:
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user, seats__to_act=True)
        .exclude(time_preset="live")
        .order_by("pk")
        .values_list("pk", flat=True)
    )


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
    old_key, new_key = engine.turn_key(match.state), engine.turn_key(state)
    match.version += 1
    match.state = state
    Move.objects.create(
        match=match, number=match.version, seat=seat_number, kind=kind, payload=payload, log=entries, by_bot=by_bot
    )
    match.history_tail = [*match.history_tail, {"number": match.version, "seat": seat_number, "log": entries}][
        -HISTORY_TAIL:
    ]
    extra = clock.extra_seconds(get_spec(match.game).live_clock, match.turn_seconds, payload.get("type", ""))
    _after_state_change(
        match,
        engine,
        mover=seat_number,
        mover_new_turn=new_key is None or new_key != old_key,
        mover_by_bot=by_bot,
        mover_extra_seconds=extra if kind == Move.Kind.MOVE else 0,
    )


def _after_state_change(
    match: Match,
    engine: Engine,
    mover: int | None = None,
    mover_new_turn: bool = False,
    mover_by_bot: bool = False,
    mover_extra_seconds: int = 0,
) -> None:
    """Save the match, run the seats' clocks, finish it if over, notify, queue bot seats' moves.

    Called with the match row locked, after every change of state."""
    to_act = set(engine.to_act(match.state))
    result = engine.result(match.state)
    now = timezone.now()
    seats = _seats_with_users(match)
    newly_to_act = []
    if result is not None:
        match.status = Match.Status.FINISHED
        match.result = result.as_dict()
        match.end_reason = fill_names(result.reason, seat_names(seats))[:200]
        match.ended = now
        to_act = set()
    for seat in seats:
        if seat.number == mover and not mover_by_bot:
            seat.timeouts_in_row = 0  # ruling ALL-4 counts timeouts in a row: a move of one's own ends the run
        new_turn = not seat.to_act or (seat.number == mover and mover_new_turn)
        if seat.number in to_act and new_turn:
            newly_to_act.append(seat)
            start_turn_clock(match, seat, now)
        elif seat.number not in to_act:
            stop_turn_clock(seat)
        elif seat.number == mover and mover_extra_seconds:
            add_turn_time(match, seat, mover_extra_seconds, now)
        seat.to_act = seat.number in to_act
    Seat.objects.bulk_update(
        seats, ["to_act", "turn_started", "deadline", "paused_seconds", "remind_at", "timeouts_in_row"]
    )
    previous_deadline, match.deadline = match.deadline, earliest_deadline(seats)
    save_board_change(match)
    queue_deadline_task(match, seats, previous_deadline)

    if result is not None:
        do_rate_finished_match(match)
        for seat in seats:
            if seat.user_id and not seat.is_bot:
                notify(match, seat.user, Kind.FINISHED, match.version)
    elif match.version == 0:
        for seat in seats:
            if seat.user_id and not seat.is_bot and seat.user_id != match.created_by_id:
                notify(match, seat.user, Kind.STARTED, 0)
    for seat in newly_to_act:  # the mover keeping the turn is at the board: no email; nor in a live match
        if seat.user_id and not seat.is_bot and match.version > 0 and seat.number != mover:
            if not clock.is_live(match.turn_seconds):
                notify(match, seat.user, Kind.YOUR_TURN, match.version)
    if any(seat.is_bot for seat in seats if seat.to_act):
        _queue_bot_moves(match)


def _seats_with_users(match: Match) -> list[Seat]:
    """The match's seats with their users: the prefetched ones when the caller loaded them."""
    if "seats" in getattr(match, "_prefetched_objects_cache", {}):
        return list(match.seats.all())
    prefetch_related_objects([match], Prefetch("seats", queryset=Seat.objects.select_related("user")))
    return list(match.seats.all())


# --- clocks (ruling ALL-1) -------------------------------------------------------------------------


def _seat_zone(seat: Seat) -> str:
    return seat.user.time_zone if seat.user_id else "UTC"


def _on_vacation(match: Match, seat: Seat) -> bool:
    return match.time_preset != "live" and seat.user_id is not None and seat.user.vacation_started is not None


BOT_GRACE_SECONDS = 120  # a bot seat answers at once; its deadline only catches a lost task


def start_turn_clock(match: Match, seat: Seat, now) -> None:
    """A seat's turn begins: its deadline is a turn's time away, or paused while on vacation."""
    seat.turn_started = now
    if seat.is_bot:
        seat.deadline, seat.remind_at, seat.paused_seconds = now + timedelta(seconds=BOT_GRACE_SECONDS), None, None
        return
    if _on_vacation(match, seat):
        seat.deadline, seat.remind_at, seat.paused_seconds = None, None, match.turn_seconds
        return
    seat.paused_seconds = None
    seat.deadline = clock.add_clock_time(now, match.turn_seconds, match.weekend_pause, _seat_zone(seat))
    set_reminder(match, seat, now)


def set_reminder(match: Match, seat: Seat, now) -> None:
    """Remind when a fifth of the time this turn may still take (turn time plus reserve) is left; never
    in a live match (issue 16: the player is at the board)."""
    if seat.is_bot or seat.deadline is None or clock.is_live(match.turn_seconds):
        seat.remind_at = None
        return
    total = clock.clock_seconds_between(now, seat.deadline, match.weekend_pause, _seat_zone(seat))
    total += seat.reserve_left * match.period_seconds
    final = clock.add_clock_time(now, total, match.weekend_pause, _seat_zone(seat))
    seat.remind_at = final - (final - now) / 5


def add_turn_time(match: Match, seat: Seat, seconds: int, now) -> None:
    """A move that gives its player more time on the running turn (games.clock.extra_seconds)."""
    if seat.is_bot:
        return
    if seat.deadline is not None:
        seat.deadline = clock.add_clock_time(seat.deadline, seconds, match.weekend_pause, _seat_zone(seat))
        set_reminder(match, seat, now)
    elif seat.paused_seconds is not None:
        seat.paused_seconds += seconds


DEADLINE_TASK_SECONDS = 600  # issue 16: a deadline nearer than this gets a task for its own second


def queue_deadline_task(match: Match, seats: list[Seat], previous) -> None:
    """After the commit, a worker applies the match's new deadline at its second (games.tasks.enforce_deadline).

    For a deadline under DEADLINE_TASK_SECONDS away (a countdown the worker holds, far inside the
    broker's visibility timeout) that a player's turn set; the minute sweep stays the backstop for
    longer ones, bot seats' and lost tasks. The task does nothing once the deadline has moved."""
    deadline = match.deadline
    if deadline is None or deadline == previous or match.status != Match.Status.ACTIVE:
        return
    if deadline - timezone.now() > timedelta(seconds=DEADLINE_TASK_SECONDS):
        return
    if not any(seat.to_act and not seat.is_bot and seat.deadline == deadline for seat in seats):
        return
    from games.tasks import enforce_deadline  # tasks import this module

    match_id, when = match.pk, deadline.isoformat()
    transaction.on_commit(lambda: enforce_deadline.apply_async((match_id, when), eta=deadline))


def stop_turn_clock(seat: Seat) -> None:
    seat.turn_started = seat.deadline = seat.remind_at = seat.paused_seconds = None


def earliest_deadline(seats: list[Seat]):
    deadlines = [s.deadline for s in seats if s.to_act and s.deadline is not None]
    return min(deadlines) if deadlines else None


def _queue_bot_moves(match: Match) -> None:
    """After the commit, a worker lets the bot seat(s) to act at this version move."""
    from games.tasks import play_bot_moves  # tasks import this module

    play_bot_moves.delay_on_commit(match.pk, match.version)


def choose_bot_move(match: Match, seat_number: int, level: str) -> dict[str, Any]:
    """A bot decides from its seat's view and legal moves only; it never sees the state."""
    engine = engine_of(match)
    view = engine.view(match.state, seat_number)
    legal = engine.legal_moves(match.state, seat_number)
    bot = engine.bots.get(level) or engine.bots["random"]
    return bot(view, legal, bot_rng(match.state, match.version, seat_number))


def bot_rng(state: dict[str, Any], version: int, seat_number: int) -> random.Random:
    """The bot's generator, keyed by the match's secret seed (ruling ALL-2).

    Seeded from public figures (match id, version, seat) anyone could rerun the bot's code and
    learn its hidden choices and bluffs. An HMAC of the secret seed keeps that as secret as the
    cards, and leaves the state (and so the replay of the move log) untouched."""
    secret = str(state["rng"]["seed"]).encode()
    digest = hmac.new(secret, f"bot:{version}:{seat_number}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def do_abort(match_id: int, by_user: User, reason: str) -> Match:
    """A moderator stops a match: nobody wins."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
            raise ActionError(gettext("Only an open or running match can be aborted."))
        match.status = Match.Status.ABORTED
        match.ended = timezone.now()
        match.deadline = None
        match.end_reason = (reason or f"Aborted by {by_user.username}")[:200]
        save_board_change(match)
        match.seats.update(to_act=False)
        return match


def do_hand_seat_to_bot(match_id: int, seat_number: int) -> Match:
    """A bot takes a seat for good (a suspended player's, or ALL-4's third timeout)."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE:
            raise ActionError(gettext("This match is not in play."))
        engine = engine_of(match)
        seat = match.seats.get(number=seat_number)
        seat.handed_to_bot = True
        seat.bot_level = "normal" if "normal" in engine.bots else "random"
        seat.save(update_fields=["handed_to_bot", "bot_level"])
        save_board_change(match, [])
        if seat.to_act:
            _queue_bot_moves(match)
        return match


def do_adjudicate(match_id: int, winners: list[int], reason: str) -> Match:
    """A moderator ends a running match with a result (winners empty: a draw)."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE:
            raise ActionError(gettext("Only a running match can be adjudicated."))
        seats = list(match.seats.select_related("user"))
        if not set(winners) <= {s.number for s in seats}:
            raise ActionError(gettext("Winners must be seats of this match."))
        match.status = Match.Status.FINISHED
        match.result = {"winners": sorted(set(winners)), "scores": [], "reason": reason, "draw": not winners}
        match.end_reason = reason[:200]
        match.ended = timezone.now()
        match.deadline = None
        save_board_change(match)
        do_rate_finished_match(match)
        for seat in seats:
            stop_turn_clock(seat)
            seat.to_act = False
        Seat.objects.bulk_update(seats, ["to_act", "turn_started", "deadline", "paused_seconds", "remind_at"])
        for seat in seats:
            if seat.user_id and not seat.is_bot:
                notify(match, seat.user, Kind.FINISHED, match.version)
        return match
