"""Many matches created and started at once, their seats already taken: a tournament's pairings.

A championship season starts hundreds of matches in one worker task. Started one by one
(Match.create, the seats, games.actions.play.after_start) that is some twenty queries a
match; here it is a fixed number whatever the count: one query for the users, one bulk insert each
for the matches and the seats (their clocks already running, computed before the insert), and one
MatchesStarted event (games/events.py) whose listeners work in bulk (notifications.listeners writes
every player's word of the start at once).

What follows is what after_start does at version 0 for a match started by nobody's request:
a deadline task where a turn is short, the bot seats' moves queued. Called inside the caller's
transaction; the side effects go once it commits.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import events
from games.actions.bots import queue_bot_moves
from games.actions.clocks import earliest_deadline, queue_deadline_task, start_turn_clock
from games.actions.play import after_start
from games.engines.registry import get_engine
from games.models import Match, Seat, TimeControl


@dataclass
class NewMatch:
    """A match to start: its game and parsed options, its clock preset, and who sits where, in seat
    order ((user id, None) for a player, (None, bot level) for a bot)."""

    game: str
    options: dict[str, Any]
    created_by_id: int
    time_preset: str
    players: Sequence[tuple[int | None, str]]
    rated: bool = True
    abortable: bool = False  # a pairing: a no-show loses on time (ruling SITE-ABORT does not apply)
    # What every player hears of the start, when not "your turn" or "started" (a tournament's match:
    # notifications.models.Kind.TOURNAMENT_ROUND, a preference of its own).
    opening_kind: str = ""
    seats: list[Seat] = field(default_factory=list)  # filled in by start_matches


def start_matches(wanted: Sequence[NewMatch]) -> list[Match]:
    """Create and start these matches, in this order, in a number of queries that does not grow with them."""
    user_ids = {user_id for new in wanted for user_id, _ in new.players if user_id is not None}
    users = User.objects.in_bulk(user_ids)
    now = timezone.now()
    matches = [_new_match(new, users, now) for new in wanted]
    Match.objects.bulk_create(matches)
    for match, new in zip(matches, wanted, strict=True):
        for seat in new.seats:
            seat.match = match
    Seat.objects.bulk_create([seat for new in wanted for seat in new.seats])
    over = [match for match in matches if get_engine(match.game).result(match.state) is not None]
    for match in over:  # a game over before its first move (none today): the usual path finishes it
        after_start(match, get_engine(match.game), starter_id=None)
    started = [(match, new) for match, new in zip(matches, wanted, strict=True) if match not in over]
    for match, new in started:
        queue_deadline_task(match, new.seats, None)
        if any(seat.is_bot and seat.to_act for seat in new.seats):
            queue_bot_moves(match)
    events.publish(events.MatchesStarted(tuple((match, tuple(new.seats), new.opening_kind) for match, new in started)))
    return matches


def _new_match(new: NewMatch, users: dict[int, User], now) -> Match:
    """The match row, unsaved, started: its state, and its seats (new.seats) with their clocks running."""
    engine = get_engine(new.game)
    turn, periods, period = TimeControl.figures(new.time_preset, new.game)
    seed = secrets.randbits(128)
    state = engine.new_state(len(new.players), new.options, seed)
    match = Match(
        game=new.game,
        options=new.options,
        created_by_id=new.created_by_id,
        time_preset=new.time_preset,
        rated=new.rated,
        abortable=new.abortable,
        turn_seconds=turn,
        reserve_periods=periods,
        period_seconds=period,
        seed=str(seed),
        state=state,
        version=0,
        revision=1,  # as a match created, then started by save_board_change
        status=Match.Status.ACTIVE,
        started=now,
    )
    to_act = set(engine.to_act(state)) if engine.result(state) is None else set()
    new.seats = []
    for number, (user_id, bot_level) in enumerate(new.players):
        seat = Seat(number=number, bot_level=bot_level or "", accepted=user_id is not None, reserve_left=periods)
        seat.user = users[user_id] if user_id is not None else None
        seat.to_act = number in to_act
        if seat.to_act:
            start_turn_clock(match, seat, now)
        new.seats.append(seat)
    match.deadline = earliest_deadline(new.seats)
    return match
