"""The rematch: a new match like a finished one, through games.actions.create_match."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.actions import ActionError, NotAllowed, create_match
from games.models import Match, Seat
from games.seats import SeatSpec


def rematch_seats(seats: list[Seat], user: User) -> list[SeatSpec]:
    """The same seats in the same order: `user` in their own, bots again, the other people invited."""
    specs = []
    for seat in seats:
        if seat.user_id == user.pk:
            specs.append(SeatSpec("me"))
        elif seat.user_id:
            specs.append(SeatSpec("invite", seat.user.username))
        elif seat.bot_level:
            specs.append(SeatSpec("bot", seat.bot_level))
        else:
            specs.append(SeatSpec("open"))
    return specs


def do_rematch(match_id: int, user: User) -> Match:
    """A new match with the same seats (bots included), options and clock, inviting the same people."""
    with transaction.atomic():
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise ActionError("There is no such match.")
        if match.status != Match.Status.FINISHED:
            raise ActionError("Only a finished match can be played again.")
        seats = list(match.seats.select_related("user").order_by("number"))
        if not any(seat.user_id == user.pk and seat.accepted for seat in seats):
            raise NotAllowed("Only the players of this match can ask for a rematch.")
        custom = None
        if match.time_preset == "custom":
            custom = (match.turn_seconds, match.reserve_periods, match.period_seconds)
        return create_match(
            user,
            match.game,
            rematch_seats(seats, user),
            options=dict(match.options),
            time_preset=match.time_preset,
            custom_clock=custom,
            weekend_pause=match.weekend_pause,
            spectators_read_chat=match.spectators_read_chat,
            rated=match.rated,
        )
