"""What the read side needs of a match and its viewer: no write happens here (presenters, views)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Prefetch, prefetch_related_objects

from accounts.models import User
from games.engines.base import Engine
from games.engines.registry import get_engine
from games.models import HISTORY_TAIL, Match, Move, MoveArchive, Note, Seat
from games.replay import engine_logs, match_steps

ARCHIVED_LOGS_SECONDS = 24 * 3600


def engine_of(match: Match) -> Engine:
    return get_engine(match.game)


def seats_with_users(match: Match) -> list[Seat]:
    """The match's seats with their users, in seat order: loaded once, then the same objects again for
    every later caller of the same match object (prefetch_related_objects skips what is loaded)."""
    prefetch_related_objects([match], Prefetch("seats", queryset=Seat.objects.select_related("user")))
    return list(match.seats.all())


def held_seat(seats: Iterable[Seat], user: User) -> Seat | None:
    """The user's accepted seat among `seats`, also once handed to a bot (a player who resigned or ran
    late is still a player of the match: their notes, the chat)."""
    if not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk and s.accepted), None)


def seat_of(match: Match, user: User) -> Seat | None:
    """The seat the user plays now: not one a bot plays for them."""
    seat = held_seat(match.seats.all(), user)
    return None if seat is None or seat.handed_to_bot else seat


def match_moves(match: Match) -> list[Move]:
    """The match's moves in order: its Move rows, or once its moves are archived unsaved
    Move objects with the same fields, built from its MoveArchive row. Every reader of an ended
    match's moves (replays, records, the history page, emails, the admin's replay) reads them here."""
    if match.moves_archived:
        return _archived_moves(match)
    moves = list(match.moves.order_by("number"))
    if not moves and match.version and match.is_over:
        # The archive may have taken the rows between reading the match and reading them.
        return _archived_moves(match)
    return moves


def last_move_upto(match: Match, number: int) -> Move | None:
    """The last move numbered `number` or lower (an email's last move): one row while the moves are
    rows, else from the archive."""
    if not match.moves_archived:
        found = match.moves.filter(number__lte=number).order_by("-number").first()
        if found is not None or number <= 0 or not match.is_over:  # else archived since the match was read?
            return found
    return next((m for m in reversed(match_moves(match)) if m.number <= number), None)


def _archived_moves(match: Match) -> list[Move]:
    """The archive's lists as Move objects (games.models.MoveArchive says the lists' order); a log
    the archive left out is the engine's, replayed from the seed once and kept in the cache (an
    archive never changes: a Dizzy Duo Battle of 560 moves takes some 120 ms to replay)."""
    rows = MoveArchive.objects.filter(match=match).values_list("moves", flat=True).first() or []
    base = MoveArchive.time_base(match)
    moves = [
        Move(
            match=match,
            number=number,
            seat=seat,
            kind=kind,
            payload=payload,
            log=log,
            by_bot=by_bot,
            created=base + timedelta(microseconds=after),
        )
        for number, seat, kind, payload, log, by_bot, after in rows
    ]
    if any(move.log is None for move in moves):
        key = f"archived-logs:{match.pk}"
        logs = cache.get_or_set(key, lambda: engine_logs(match, match_steps(moves)), ARCHIVED_LOGS_SECONDS)
        for move, log in zip(moves, logs):
            if move.log is None:
                move.log = log
    return moves


def seats_that_moved(match: Match, seats: set[int]) -> set[int]:
    """Which of `seats` have a step in the move log. The board's history tail holds the last steps
    (every step while the match is young): only a seat that is not in it is looked up in the Move
    rows, which a running match always has (an archived match has ended). So a board late in a match
    whose seats take turns reads no moves, as at move 1."""
    moved = {step["seat"] for step in match.history_tail} & seats
    whole = match.version <= HISTORY_TAIL and len(match.history_tail) == match.version
    if moved == seats or whole:
        return moved
    missing = Move.objects.filter(match=match, seat__in=seats - moved)
    # order_by(): Move's default ordering would put its columns into the DISTINCT, one row a move.
    found = missing.values_list("seat", flat=True).order_by().distinct()
    return moved | set(found)


def can_abort(match: Match, seats: list[Seat]) -> bool:
    """Ruling SITE-ABORT: a running match may be aborted until every seat has made its first move."""
    if match.status != Match.Status.ACTIVE or not match.abortable:
        return False
    numbers = {seat.number for seat in seats}
    return seats_that_moved(match, numbers) != numbers


def note_text(match: Match, user: User) -> str | None:
    """The viewer's own notes on the match ("" when none yet); None when they have no seat in it (no
    notes box). Only ever the viewer's own: no one reads another's notes."""
    if held_seat(match.seats.all(), user) is None:
        return None
    if match.status == Match.Status.CANCELLED:
        return None
    return Note.objects.filter(match=match, user=user).values_list("text", flat=True).first() or ""
