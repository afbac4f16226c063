"""The games' part of a player's account (accounts.parts, registered in GamesConfig.ready()): their
matches in the copy of their data, what closing the account does to the matches still going on, and
the notes the erasure removes.

The copy holds what the player saw and did, never what the rules hide from them: no engine state, no
seed, only their own seat's moves and the log lines written to everyone or to them, only their own
notes, and no other player's email."""

from __future__ import annotations

import logging
from typing import Any

from accounts.models import User
from games import actions
from games.models import Match, Note, Seat, texts_for
from games.reads import match_moves

logger = logging.getLogger(__name__)


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def _outcome(match: Match, seat: Seat) -> str | None:
    if match.status != Match.Status.FINISHED or not match.result:
        return None
    if match.result.get("draw"):
        return "draw"
    won = seat.number in (match.result.get("winners") or []) and not seat.resigned
    return "won" if won else "lost"


def _own_moves(match: Match, seat: int) -> list[dict[str, Any]]:
    """The moves the player made at their seat (not a bot's in their place), with the log lines they
    could read."""
    return [
        {
            "number": move.number,
            "kind": move.kind,
            "move": move.payload,
            "log": texts_for(move.log, seat, False),
            "time": _iso(move.created),
        }
        for move in match_moves(match)
        if move.seat == seat and not move.by_bot
    ]


def export_matches(user: User) -> list[dict[str, Any]]:
    seats = Seat.objects.filter(user=user).select_related("match").order_by("match_id")
    notes = dict(Note.objects.filter(user=user).values_list("match_id", "text"))
    return [
        {
            "id": seat.match.pk,
            "game": seat.match.game,
            "status": seat.match.status,
            "created": _iso(seat.match.created),
            "started": _iso(seat.match.started),
            "ended": _iso(seat.match.ended),
            "seat": seat.number + 1,
            "resigned": seat.resigned,
            "result": _outcome(seat.match, seat),
            "end_reason": seat.match.end_reason_text() if seat.match.is_over else "",
            "moves": _own_moves(seat.match, seat.number),
            "notes": notes.get(seat.match.pk, ""),
        }
        for seat in seats
    ]


def close_matches(user: User) -> None:
    """The matches of a closing account: its open ones cancelled, its seats in others' open ones
    given up (invitations declined), its running ones resigned as the player would resign them."""
    seats = Seat.objects.filter(user=user, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE])
    for match in Match.objects.filter(pk__in=seats.values("match_id")).order_by("pk"):
        try:
            if match.status == Match.Status.ACTIVE:
                actions.do_resign(match.pk, user)
            elif match.created_by_id == user.pk:
                actions.do_cancel(match.pk, user)
            else:
                actions.do_leave(match.pk, user)
        except actions.ActionError as error:  # resigned already, a bot plays the seat: nothing to end
            logger.info("closing account %s: match %s left as it is (%s)", user.pk, match.pk, error)
    for match in Match.objects.filter(created_by=user, status=Match.Status.OPEN):  # one it made for others
        actions.do_cancel(match.pk, user)


def erase_from_matches(user: User) -> None:
    """The erasure's part in the matches: the player's notes go, and the stored words of how their
    matches ended ("alice resigned.", kept as text for readers of any time) name them as everyone
    will: "deleted player N". The moves and results stay, so the records still replay."""
    Note.objects.filter(user=user).delete()
    old_name, new_name = user.public_name, f"deleted player {user.pk}"
    ended = Match.objects.filter(seats__user=user, end_reason__contains=old_name).distinct()
    for match in ended.only("pk", "end_reason"):
        Match.objects.filter(pk=match.pk).update(end_reason=match.end_reason.replace(old_name, new_name))
