"""Creating a tournament's matches: every seat already taken by its entrant, started at once.

games/actions/lobby.py's create_match needs a creator who takes a seat and invites the others,
who then accept; a tournament's match has its players fixed by the pairing. This makes the match
the way create_match does (the engine parses the options, the tournament's clock, the seats) and
starts it the way the lobby does when the last seat is taken (engine.new_state, then
games.actions.play.after_state_change: clocks, notifications, bot moves, all queued on commit).
Called inside the caller's transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.utils import timezone

from games.actions.play import after_state_change
from games.engines.registry import get_engine
from games.models import Match, Seat, TimeControl
from tournaments.models import Entry, Tournament


def create_started_match(tournament: Tournament, entries: Sequence[Entry]) -> Match:
    """A running match of the tournament's game and clock, the entries seated in this order."""
    engine = get_engine(tournament.game)
    options = engine.parse_options(tournament.options, len(entries))
    turn, periods, period = TimeControl.figures(tournament.time_preset, tournament.game)
    match = Match.objects.create(
        game=tournament.game,
        options=options,
        created_by=tournament.organiser,
        time_preset=tournament.time_preset,
        rated=tournament.rated,
        abortable=False,
        turn_seconds=turn,
        reserve_periods=periods,
        period_seconds=period,
    )
    Seat.objects.bulk_create(
        Seat(
            match=match,
            number=number,
            user_id=entry.user_id,
            bot_level=entry.bot_level,
            accepted=entry.user_id is not None,
            reserve_left=periods,
        )
        for number, entry in enumerate(entries)
    )
    match.seed = str(secrets.randbits(128))
    match.state = engine.new_state(len(entries), match.options, int(match.seed))
    match.version = 0
    match.status = Match.Status.ACTIVE
    match.started = timezone.now()
    after_state_change(match, engine)
    return match
