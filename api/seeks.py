"""Other people's open seats (lichess's seeks): matches waiting for players that I could join.

A seek is an open match of someone else's with a seat open to anyone; `POST matches/{id}/join`
takes it. Making one is `POST matches` with an open seat. Only public facts are shown (the match
has not started: there is nothing hidden yet).
"""

from __future__ import annotations

from typing import Annotated, Literal

from django.db.models import Q
from django.http import HttpRequest
from ninja import Query, Router, Schema

from api.present import facts
from api.schemas import MAX_ID, GameSlug, MatchInfoOut, SeatOut
from api.shared import ERRORS
from games.models import Match
from moderation.models import Block

router = Router(tags=["seeks"])
MAX_SEEKS = 50


class ClockFacts(Schema):
    preset: str
    turn_seconds: int
    reserve_periods: int
    period_seconds: int
    weekend_pause: bool


class SeekOut(Schema):
    match: MatchInfoOut
    seats: list[SeatOut]
    open_seats: int
    rated: bool
    clock: ClockFacts


def clock_facts(match: Match) -> dict:
    return {
        "preset": match.time_preset,
        "turn_seconds": match.turn_seconds,
        "reserve_periods": match.reserve_periods,
        "period_seconds": match.period_seconds,
        "weekend_pause": match.weekend_pause,
    }


def open_to(user):
    """Open matches with a seat open to anyone, none of `user`'s, whose creator does not block `user`."""
    blocked_by = Block.objects.filter(blocked=user).values("blocker")
    return (
        Match.objects.filter(status=Match.Status.OPEN, seats__user__isnull=True, seats__bot_level="")
        .exclude(Q(seats__user=user) | Q(created_by__in=blocked_by))
        .distinct()
    )


@router.get(
    "/seeks",
    response={200: list[SeekOut], **ERRORS},
    summary="Open seats in other people's matches, newest first; join one with POST matches/{id}/join",
)
def seeks(
    request: HttpRequest,
    game: Annotated[GameSlug | None, Query(description="Only this game")] = None,
    clock: Annotated[Literal["daily", "relaxed", "live", "custom"] | None, Query(description="Only this clock")] = None,
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Only matches older than this id")] = None,
):
    matches = open_to(request.auth)
    if game is not None:
        matches = matches.filter(game=str(game))
    if clock is not None:
        matches = matches.filter(time_preset=clock)
    if before is not None:
        matches = matches.filter(pk__lt=before)
    found = list(matches.prefetch_related("seats__user").order_by("-pk")[:MAX_SEEKS])
    return [
        {
            **facts(match),
            "open_seats": sum(1 for s in match.seats.all() if s.user_id is None and not s.bot_level),
            "rated": match.rated,
            "clock": clock_facts(match),
        }
        for match in found
    ]
