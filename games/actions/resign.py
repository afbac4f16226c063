"""A player ends their own part: resigning (ruling SITE-RESIGN) or aborting (ruling SITE-ABORT).

Resigning in a game of two ends it, and the other player wins: the site applies that end as it
applies a timeout's (games.engines.base.resignation_result gives the result), and the move log keeps
the resignation as a step of kind "resign", which the replay passes over. In a game of three and more
(Dizzy Duo Battle, Lizzy Ghosties) a normal bot plays the seat to the end, as ruling ALL-4 hands a seat
over, and the player is ranked last whatever it does (ratings.actions reads Seat.resigned).

Aborting, until every seat has made its first move, ends the match with no result and no rating: the
moderators' abort (games.actions.moderation.abort_locked) with the player's name. The worker aborts a
match in the same way when its first player runs out of time without a move (games.actions.deadlines).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from games.actions.common import ActionError, NotAllowed, check_can_play, lock_match
from games.actions.moderation import abort_locked
from games.actions.play import record_resignation
from games.engines.base import Result, resignation_log, resignation_result
from games.engines.registry import get_bots
from games.engines.words import Msg, logged
from games.events import SeatHandedToBot, publish
from games.models import Match, Seat
from games.reads import can_abort, engine_of, held_seat, seats_with_users


class NotNow(ActionError):
    """The match is not (or no longer) in a state that allows it: a conflict with the current board."""

    status = 409


ABORTED_BY_PLAYER = gettext_noop("Aborted by {name} before every player had moved.")


def _locked_with_seat(match_id: int, user: User) -> tuple[Match, Seat]:
    """The match, its row locked and its seats loaded, and the user's own seat in it."""
    check_can_play(user)
    match = lock_match(match_id)
    seat = held_seat(seats_with_users(match), user)
    if seat is None:
        raise NotAllowed(gettext("You have no seat in this match."))
    if seat.resigned:
        raise NotNow(gettext("You have resigned from this match already."))
    if seat.handed_to_bot:
        raise NotNow(gettext("A bot plays your seat in this match now."))
    if match.status != Match.Status.ACTIVE:
        raise NotNow(gettext("This match is not in play."))
    return match, seat


def do_resign(match_id: int, user: User) -> Match:
    """The user resigns their seat in a running match (ruling SITE-RESIGN)."""
    with transaction.atomic():
        match, seat = _locked_with_seat(match_id, user)
        _resign_seat(match, seat)
        return match


def _resign_seat(match: Match, seat: Seat, words: tuple[str, str] | None = None) -> None:
    """Ruling SITE-RESIGN for `seat` (the match locked, its seats loaded): a game of two ends and the
    other seat wins; in a bigger one a bot plays the seat on, the player ranked last. `words`: the log's
    texts for those two cases, when not a resignation's."""
    engine = engine_of(match)
    seats = list(match.seats.all())
    seat.resigned = True
    if len(seats) == 2:
        seat.save(update_fields=["resigned"])
        ended = resignation_result(seat.number, 2)
        entry = resignation_log(seat.number, bot_plays_on=False)
        if words is not None:
            entry = logged(words[0], name=f"{{p{seat.number}}}")
            ended = Result(ended.winners, [], Msg(words[0], name=f"{{p{seat.number}}}"))
        record_resignation(match, engine, seat.number, entry, ended=ended)
        return
    seat.handed_to_bot = True
    seat.bot_level = seat.bot_level or ("normal" if "normal" in get_bots(engine.slug) else "random")
    seat.save(update_fields=["resigned", "handed_to_bot", "bot_level"])
    entry = resignation_log(seat.number, bot_plays_on=True)
    if words is not None:
        entry = logged(words[1], name=f"{{p{seat.number}}}")
    record_resignation(match, engine, seat.number, entry, ended=None)
    publish(
        SeatHandedToBot(match, match.version, seats=tuple(seats), seat=seat.number, reason=SeatHandedToBot.RESIGNED)
    )


FORFEITED = gettext_noop("{name} is out of the tournament and loses this match.")
FORFEITED_BOT_PLAYS_ON = gettext_noop(
    "{name} is out of the tournament: a bot plays the seat to the end; they are ranked last."
)


def do_forfeit(match_id: int, seat_number: int) -> Match:
    """A tournament's entrant who withdrew or was banned loses this running match at once (ruling
    TRN-8 in docs/rulings.md): as a resignation (SITE-RESIGN) by nobody's request, so no check of the
    player, who may be banned. Nothing happens to a match over or a seat resigned already."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = next((s for s in seats_with_users(match) if s.number == seat_number), None)
        if seat is None or seat.resigned or match.status != Match.Status.ACTIVE:
            return match
        _resign_seat(match, seat, (FORFEITED, FORFEITED_BOT_PLAYS_ON))
        return match


def do_player_abort(match_id: int, user: User) -> Match:
    """A player aborts a match before every seat has made its first move (ruling SITE-ABORT)."""
    with transaction.atomic():
        match, _seat = _locked_with_seat(match_id, user)
        if not can_abort(match, list(match.seats.all())):
            raise NotNow(gettext("Every player has moved: the match can no longer be aborted. You may resign."))
        abort_locked(match, Msg(ABORTED_BY_PLAYER, name=user.public_name), notify_except=user)
        return match
