"""Moderators' changes to a match: abort, hand a seat to a bot, adjudicate."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from games.actions.bots import queue_bot_moves
from games.actions.clocks import stop_turn_clock
from games.actions.common import ActionError, lock_match, save_board_change
from games.engines.registry import get_bots
from games.engines.words import Msg, words_of
from games.events import MatchFinished, MoveMade, SeatHandedToBot, publish
from games.models import Match, Seat
from games.reads import engine_of, seats_with_users


def do_abort(match_id: int, by_user: User, reason: str) -> Match:
    """A moderator stops a match: nobody wins. `reason` may be a Msg (games.engines.words), so that
    each reader reads it in their language."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
            raise ActionError(gettext("Only an open or running match can be aborted."))
        reason = reason or Msg(gettext_noop("Aborted by {name}"), name=by_user.username)
        abort_locked(match, reason, notify_except=by_user)
        return match


def abort_locked(match: Match, reason: str, *, notify_except: User | None = None) -> None:
    """End a match (its row locked) with no result and no rating: a moderator's abort, a player's
    (ruling SITE-ABORT) or the worker's when the first player never moved. The players hear of it as
    of any other end (the "finished" notification), but for the one who aborted it."""
    match.status = Match.Status.ABORTED
    match.ended = timezone.now()
    match.deadline = None
    match.end_reason, match.end_reason_words = str(reason)[:200], words_of(reason)
    save_board_change(match)
    match.seats.update(to_act=False, deadline=None, turn_started=None, remind_at=None, paused_seconds=None)
    seats = tuple(seats_with_users(match))
    publish(MoveMade(match, match.version, seats=seats))
    publish(MatchFinished(match, match.version, seats=seats, quiet_user_id=getattr(notify_except, "pk", None)))


def do_hand_seat_to_bot(match_id: int, seat_number: int) -> Match:
    """A bot takes a seat for good (a suspended player's, or ALL-4's third timeout)."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.ACTIVE:
            raise ActionError(gettext("This match is not in play."))
        engine = engine_of(match)
        seat = match.seats.get(number=seat_number)
        seat.handed_to_bot = True
        seat.bot_level = "normal" if "normal" in get_bots(engine.slug) else "random"
        seat.save(update_fields=["handed_to_bot", "bot_level"])
        save_board_change(match, fields=[])
        seats = tuple(seats_with_users(match))
        publish(SeatHandedToBot(match, match.version, seats=seats, seat=seat_number, reason=SeatHandedToBot.MODERATION))
        if seat.to_act:
            queue_bot_moves(match)
        return match


def do_adjudicate(match_id: int, winners: list[int], reason: str) -> Match:
    """A moderator ends a running match with a result (winners empty: a draw); `reason` as do_abort's."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.ACTIVE:
            raise ActionError(gettext("Only a running match can be adjudicated."))
        seats = list(match.seats.select_related("user"))
        if not set(winners) <= {s.number for s in seats}:
            raise ActionError(gettext("Winners must be seats of this match."))
        match.status = Match.Status.FINISHED
        match.result = {"winners": sorted(set(winners)), "scores": [], "reason": str(reason), "draw": not winners}
        match.end_reason, match.end_reason_words = str(reason)[:200], words_of(reason)
        match.ended = timezone.now()
        match.deadline = None
        save_board_change(match)
        for seat in seats:
            stop_turn_clock(seat)
            seat.to_act = False
        Seat.objects.bulk_update(seats, ["to_act", "turn_started", "deadline", "paused_seconds", "remind_at"])
        publish(MoveMade(match, match.version, seats=tuple(seats)))
        publish(MatchFinished(match, match.version, seats=tuple(seats)))  # rated and told as any other end
        return match
