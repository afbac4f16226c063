"""What the read side needs of a match and its viewer: no write happens here (presenters, views)."""

from __future__ import annotations

from accounts.models import User
from games.engines.base import Engine
from games.engines.registry import get_engine
from games.models import HISTORY_TAIL, Match, Move, Note, Seat


def engine_of(match: Match) -> Engine:
    return get_engine(match.game)


def seat_of(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk and s.accepted and not s.handed_to_bot), None)


def seats_that_moved(match: Match) -> set[int]:
    """The seats with a step in the move log. The board's history tail holds every step while the
    match is young (no query); past that, the Move rows are read."""
    if match.version <= HISTORY_TAIL and len(match.history_tail) == match.version:
        return {step["seat"] for step in match.history_tail}
    return set(Move.objects.filter(match=match).values_list("seat", flat=True).distinct())


def can_abort(match: Match, seats: list[Seat]) -> bool:
    """Ruling SITE-ABORT: a running match may be aborted until every seat has made its first move."""
    if match.status != Match.Status.ACTIVE or not match.abortable:
        return False
    return not {seat.number for seat in seats} <= seats_that_moved(match)


def note_text(match: Match, user: User) -> str | None:
    """The viewer's own notes on the match ("" when none yet); None when they have no seat in it (no
    notes box). Only ever the viewer's own: no one reads another's notes."""
    if not user.is_authenticated or not any(s.user_id == user.pk and s.accepted for s in match.seats.all()):
        return None
    if match.status == Match.Status.CANCELLED:
        return None
    return Note.objects.filter(match=match, user=user).values_list("text", flat=True).first() or ""
