"""Challenges (after lichess's challenge API): challenge a player to a game with options and
a clock; they accept, or decline with a reason; the challenger may cancel. A challenge is an open
match with the challenged player invited (what the board calls an invitation), so it shows on both
players' pages too; its id is the match's. Invitations made on the board are in GET matches?filter=invited."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.http import HttpRequest
from ninja import Path, Query, Router, Schema, Status

from api import actions
from api.auth import scoped
from api.models import CHALLENGE, Challenge
from api.schemas import MAX_ID, ChallengeIn, In
from api.seeks import ClockFacts, clock_facts
from api.shared import ERRORS
from games.models import Match

router = Router(tags=["challenges"])
ChallengeId = Annotated[int, Path(ge=1, le=MAX_ID, description="The challenge's id, which is its match's")]
MAX_LISTED = 50
ChallengeStatus = Literal["pending", "accepted", "declined", "cancelled"]


class PlayerOut(Schema):
    username: str
    name: str
    is_bot: bool


class ChallengeOut(Schema):
    id: int
    status: ChallengeStatus
    challenger: PlayerOut
    challenged: PlayerOut
    game: str
    options: dict
    rated: bool
    clock: ClockFacts
    created: datetime
    decline_reason: Challenge.Reason | None
    decline_reason_text: str | None
    url: str


class ChallengesOut(Schema):
    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]


class DeclineIn(In):
    reason: Challenge.Reason = Challenge.Reason.GENERIC


def status_of(challenge: Challenge) -> str:
    match = challenge.match
    if match.status == Match.Status.OPEN:
        return "pending"
    if match.status == Match.Status.CANCELLED:
        return "declined" if challenge.decline_reason else "cancelled"
    return "accepted"


def _player(user) -> dict:
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def out(challenge: Challenge) -> dict:
    match = challenge.match
    reason = challenge.decline_reason or None
    return {
        "id": match.pk,
        "status": status_of(challenge),
        "challenger": _player(challenge.challenger),
        "challenged": _player(challenge.challenged),
        "game": match.game,
        "options": match.options,
        "rated": match.rated,
        "clock": clock_facts(match),
        "created": challenge.created,
        "decline_reason": reason,
        "decline_reason_text": str(Challenge.Reason(reason).label) if reason else None,
        "url": match.get_absolute_url(),
    }


@router.get("/challenges", response={200: ChallengesOut, **ERRORS}, summary="My challenges, sent and received")
def my_challenges(
    request: HttpRequest,
    status: Annotated[ChallengeStatus | None, Query(description="Only challenges in this state")] = None,
):
    user = request.auth
    rows = Challenge.objects.select_related("match", "challenger", "challenged")
    listed = {"incoming": rows.filter(challenged=user), "outgoing": rows.filter(challenger=user)}
    return {
        side: [out(c) for c in found.order_by("-created")[: MAX_LISTED * 4] if status in (None, status_of(c))][
            :MAX_LISTED
        ]
        for side, found in listed.items()
    }


@router.post(
    "/challenges",
    response={201: ChallengeOut, **ERRORS},
    summary="Challenge a player: a match with them invited to the seat after mine",
    **scoped(CHALLENGE),
)
def challenge(request: HttpRequest, body: ChallengeIn):
    return Status(201, out(actions.do_challenge(request.auth, body)))


@router.get("/challenges/{challenge_id}", response={200: ChallengeOut, **ERRORS}, summary="One of my challenges")
def one_challenge(request: HttpRequest, challenge_id: ChallengeId):
    return out(actions.challenge_of(challenge_id, request.auth))


@router.post(
    "/challenges/{challenge_id}/accept",
    response={200: ChallengeOut, **ERRORS},
    summary="Accept a challenge to me (the match starts when every seat is taken)",
    **scoped(CHALLENGE),
)
def accept(request: HttpRequest, challenge_id: ChallengeId):
    return out(actions.do_accept(challenge_id, request.auth))


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, **ERRORS},
    summary="Decline a challenge to me, with a reason the challenger reads on the challenge",
    **scoped(CHALLENGE),
)
def decline(request: HttpRequest, challenge_id: ChallengeId, body: DeclineIn):
    return out(actions.do_decline(challenge_id, request.auth, body.reason))


@router.post(
    "/challenges/{challenge_id}/cancel",
    response={200: ChallengeOut, **ERRORS},
    summary="Cancel a challenge I sent, before it is answered",
    **scoped(CHALLENGE),
)
def cancel(request: HttpRequest, challenge_id: ChallengeId):
    return out(actions.do_cancel(challenge_id, request.auth))
