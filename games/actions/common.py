"""What every action shares: its errors, the row lock, and saving a board change."""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext

from accounts.models import User
from games.events import BoardChanged, publish
from games.models import Match, Seat

MAX_MOVE_BYTES = 4000


class ActionError(Exception):
    """The request is refused; nothing changed. The message is for the player."""

    status = 400


class NotAllowed(ActionError):
    status = 403


class NotYourTurn(ActionError):
    """A seated player acts out of turn: a 400 on the board, a 403 in the API (its documented code)."""


class Conflict(ActionError):
    """The request clashes with how things stand (e.g. joining a match one is already in)."""

    status = 409


class StaleVersion(ActionError):
    """Someone else moved first (or the form was submitted twice)."""

    status = 409

    def __init__(self) -> None:
        super().__init__("The board has changed since you loaded it. Here is the current board.")


class MatchOver(ActionError):
    """The match ended before this move arrived (the losing side of a race for the final move): like
    a stale board, a conflict with the current state, so 409 on the board and in the API."""

    status = 409


def save_board_change(match: Match, *, fields: list[str] | None = None, seats: list[Seat] | None = None) -> None:
    """Save the match (these `fields`, or all of it) with its revision one higher: the board changed.

    Idle polls compare Match.revision, so it must grow at every change and never repeat or go back,
    even for a caller that holds no row lock: the database adds one to what it stores (F), not to
    a value this process read earlier. Every writer of the revision goes through here, so its
    BoardChanged event (games.events) is how the apps hear of every change of the board. `seats`: the
    match's seats, when the caller holds them (else their players are read)."""
    match.revision = F("revision") + 1
    match.save(update_fields=None if fields is None else [*fields, "revision"])
    match.refresh_from_db(fields=["revision"])  # the integer the database stored, for the event too
    if match.is_over and (fields is None or "status" in fields):
        Seat.objects.filter(match=match, match_over=False).update(match_over=True)
    publish(BoardChanged(match, match.version, match.revision, user_ids=seated_user_ids(match, seats=seats)))


def seated_user_ids(match: Match, *, seats: list[Seat] | None = None) -> tuple[int, ...]:
    if seats is None:
        return tuple(Seat.objects.filter(match=match, user__isnull=False).values_list("user_id", flat=True))
    return tuple(seat.user_id for seat in seats if seat.user_id)


def lock_match(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ActionError(gettext("There is no such match.")) from None


def check_can_play(user: User) -> None:
    if not user.is_authenticated or not user.is_active:
        raise NotAllowed("Please log in first.")
    if not user.has_verified_email():
        raise NotAllowed("Please verify your email address first: we sent you a link when you signed up.")
