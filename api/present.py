"""PlayerView (games.presenters.player_view, the one redaction path) turned into API responses.

Nothing here looks at the match's state: every field comes from the PlayerView the board page
gets. Only the board's drawing (its presenter's sections) is left out: it is made from the view
and the legal moves, which are both here.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import AnonymousUser

from games.engines.registry import get_engine
from games.models import Match
from games.presenters import PlayerView, player_view


def view_for(match: Match, user) -> dict[str, Any]:
    pv = player_view(match, user)
    return {
        "match": asdict(pv.match),
        "seats": [asdict(s) for s in pv.seats],
        "seat": pv.seat,
        "my_turn": pv.my_turn,
        "waiting_for": pv.waiting_for,
        "version": pv.match.version,
        "view": pv.view,
        # Every legal move, the ones no board shows too (Flower Field's listed challenges).
        "legal": get_engine(match.game).legal_moves(match.state, pv.seat) if pv.legal else [],
        "history": pv.history,
        "clock": _clock(pv),
        "chat": pv.chat,
        "can_chat": pv.can_chat,
        "lobby": pv.lobby,
    }


def _clock(pv: PlayerView) -> dict[str, Any]:
    mine = next((s for s in pv.seats if s.is_viewer), None)
    timed = mine if mine is not None and mine.deadline else None
    return {
        "preset": pv.match.time_preset,
        "turn_seconds": pv.match.turn_seconds,
        "deadline": timed.deadline if timed else pv.match.deadline,
        "time_left": timed.time_left if timed else "",
        "reserve": mine.reserve if mine else "",
    }


def facts(match: Match) -> dict[str, Any]:
    """What anyone may know of a match: the public part of an anonymous visitor's view."""
    pv = player_view(match, AnonymousUser())
    return {"match": asdict(pv.match), "seats": [asdict(s) for s in pv.seats]}
