"""What the read side needs of a match and its viewer: no write happens here (presenters, views)."""

from __future__ import annotations

from accounts.models import User
from games.engines.base import Engine
from games.engines.registry import get_engine
from games.models import Match, Seat


def engine_of(match: Match) -> Engine:
    return get_engine(match.game)


def seat_of(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in match.seats.all() if s.user_id == user.pk and s.accepted and not s.handed_to_bot), None)
