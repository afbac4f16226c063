"""What a notification's email and push may say, and whether a waiting one should still go out.

Only what the recipient could see on the board (ALL-3). Another app adds to a match's context through
`match_context_hooks` (tournaments: the tournament and round of a new match), so this app reads no
model of theirs.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Match, fill_names, seat_names
from games.presence import is_watching
from games.reads import last_move_upto
from notifications.emails import absolute
from notifications.models import Kind, Notification

# Functions of a match giving more facts for the first email and push about it (see _opens_match);
# filled in by the apps' AppConfig.ready() (tournaments/apps.py).
match_context_hooks: list[Callable[[Match], dict]] = []


def add_match_context(hook: Callable[[Match], dict]) -> None:
    """Register `hook` (idempotent): it gets the match and returns facts to add (or {})."""
    if hook not in match_context_hooks:
        match_context_hooks.append(hook)


def email_context(row: Notification) -> dict:
    """What the email may say: only what the recipient could see on the board (ALL-3)."""
    if row.match_id is None and row.tournament_id is None:
        return championship_context(row)
    if row.match_id is None:
        return tournament_context(row)
    match = row.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    mine = next((s for s in seats if s.user_id == row.recipient_id), None)
    finished = match.is_over  # ALL-3: however it ended (an abort too), everything is public
    last_move = last_move_upto(match, row.turn)
    last_texts = []
    if last_move is not None:
        last_texts = [fill_names(t, names) for t in last_move.texts_for(mine.number if mine else None, finished)]
    return {
        "kind": row.kind,
        "match_name": f"{match.game_name} #{match.pk}",
        "game_name": match.game_name,
        "board_url": absolute(match.get_absolute_url()),
        "others": [s.public_name for s in seats if s.user_id != row.recipient_id],
        "last_texts": last_texts,
        "end_reason": match.end_reason_text(names),
        "deadline": mine.deadline if mine else None,
        "invited_by": match.created_by.public_name,
        **(_chat_context(row) if row.kind == Kind.CHAT else {}),
        **(_hooked_context(match) if _opens_match(row) else {}),
    }


def _opens_match(row: Notification) -> bool:
    """The first word a player gets of a new match: "started", or "your turn" at its first move (a
    tournament's match: its own kind, "a new round and your match")."""
    return row.kind in (Kind.STARTED, Kind.TOURNAMENT_ROUND) or (row.kind == Kind.YOUR_TURN and row.turn == 0)


def _hooked_context(match: Match) -> dict:
    context: dict = {}
    for hook in match_context_hooks:
        context.update(hook(match))
    return context


def tournament_context(row: Notification) -> dict:
    """A tournament's email and push: only what its public page shows (name, game, start, round,
    the recipient's own place and the number of entrants), never anything of a running match."""
    tournament = row.tournament
    entry = tournament.entries.filter(user_id=row.recipient_id).first()
    return {
        "kind": row.kind,
        "match_name": tournament.title,  # a championship division's in the recipient's language
        "tournament_name": tournament.title,
        "game_name": tournament.game_name,
        "board_url": absolute(tournament.get_absolute_url()),
        "others": [],
        "last_texts": [],
        "end_reason": "",
        "deadline": None,
        "invited_by": tournament.organiser.public_name,
        "starts_at": tournament.starts_at,
        "cancelled": tournament.status == tournament.Status.CANCELLED,
        "place": entry.place if entry else None,
        "entered": entry is not None,  # else the organiser, who did not enter
        "entrants": tournament.entries.count(),
    }


def championship_context(row: Notification) -> dict:
    """A championship's sign-up confirmed: its name, game and page; the division comes later."""
    championship = row.championship
    return {
        "kind": row.kind,
        "championship": True,
        "match_name": championship.title,
        "tournament_name": championship.title,
        "game_name": championship.game_name,
        "board_url": absolute(championship.get_absolute_url()),
        "others": [],
        "last_texts": [],
        "end_reason": "",
        "deadline": None,
        "invited_by": championship.organiser.public_name,
        "starts_at": None,
        "cancelled": False,
        "place": None,
        "entered": True,
        "entrants": championship.members.filter(left=False).count(),
    }


def _chat_context(row: Notification) -> dict:
    from notifications.chat import unread_chat

    authors, count = unread_chat(row)
    return {"chat_authors": authors, "chat_count": count}


def skip_reason(row: Notification) -> str:
    """Why a waiting email should no longer go out (empty: send it)."""
    if row.kind == Kind.CHAT:
        if row.read_at is not None or row.deleted_at is not None:
            return "read already"
        if is_watching(row.match_id, row.recipient_id):
            return "the player was looking at the board"
        return ""
    if row.kind not in (Kind.YOUR_TURN, Kind.REMINDER):
        return ""
    if row.deleted_at is not None:
        return "replaced by a newer one, or deleted"
    seat = row.match.seats.filter(user=row.recipient).first()
    if seat is None or not seat.to_act or row.match.status != Match.Status.ACTIVE:
        return "no longer their turn"
    if row.kind == Kind.YOUR_TURN and is_watching(row.match_id, row.recipient_id):
        return "the player was looking at the board"
    return ""
