"""Compacting an ended match's moves into one row.

An ended match's moves never change, so its Move rows are written into one MoveArchive row and
deleted: a million finished matches keep a million rows instead of some 184 million. Readers go
through games.reads.match_moves, which gives the same Move objects either way, so nothing anyone
sees changes: the board's version and revision stay, and no BoardChanged is published.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.actions.common import lock_match
from games.models import ENDED_STATUSES, Match, Move, MoveArchive
from games.replay import engine_logs, match_steps

logger = logging.getLogger(__name__)


def matches_to_archive(limit: int) -> list[int]:
    """Up to `limit` ended matches whose moves are still rows and that ended more than
    MOVE_ARCHIVE_AFTER_SECONDS ago, the oldest end first: the partial index match_moves_to_archive
    holds them (its condition is this filter's), so the sweep reads no other match."""
    cutoff = timezone.now() - timedelta(seconds=settings.MOVE_ARCHIVE_AFTER_SECONDS)
    ended = Match.objects.filter(moves_archived=False, status__in=ENDED_STATUSES, ended__lt=cutoff)
    return list(ended.order_by("ended").values_list("pk", flat=True)[:limit])


def do_archive_batch(limit: int) -> int:
    """Archive up to `limit` of matches_to_archive, each in its own transaction; how many were. One
    broken match is logged and the others go on (the archive sweep and `manage.py archive_moves`)."""
    archived = 0
    for match_id in matches_to_archive(limit):
        try:
            archived += do_archive_moves(match_id)
        except Exception:
            logger.exception("archiving the moves of match %s", match_id)
    return archived


def do_archive_moves(match_id: int) -> bool:
    """Archive the moves of an ended match, with its row locked; False when there is nothing to do
    (not ended, already archived): run twice, the second run changes nothing."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status not in ENDED_STATUSES or match.moves_archived:
            return False
        MoveArchive.objects.update_or_create(match=match, defaults={"moves": _archived_lists(match)})
        Move.objects.filter(match=match).delete()
        match.moves_archived = True
        match.save(update_fields=["moves_archived"])
    return True


def _archived_lists(match: Match) -> list[list]:
    """The match's Move rows in MoveArchive's format: [number, seat, kind, payload, log, by_bot,
    microseconds after MoveArchive.time_base], the log None where it is the one the engine writes
    again from the seed (most of an archive's bytes: the reader replays it)."""
    base = MoveArchive.time_base(match)
    moves = list(Move.objects.filter(match=match).order_by("number"))
    logs = [None if m.log == log else m.log for m, log in zip(moves, _engine_logs(match, moves))]
    return [
        [m.number, m.seat, m.kind, m.payload, log, m.by_bot, _microseconds(m.created - base)]
        for m, log in zip(moves, logs)
    ]


def _engine_logs(match: Match, moves: list[Move]) -> list[list | None]:
    """The engine's logs of the moves, or a None each where the replay fails (every log is kept)."""
    if not moves:
        return []
    try:
        return engine_logs(match, match_steps(moves))
    except Exception:  # a match an older engine played: its moves keep their logs
        logger.exception("match %s does not replay; its moves keep their logs", match.pk)
        return [None] * len(moves)


def _microseconds(delta) -> int:
    # Whole microseconds, exactly: timedelta's total_seconds() is a float and may round.
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
