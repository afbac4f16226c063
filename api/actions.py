"""Challenges: the site's lobby actions (create_match, do_join, do_leave, do_cancel) with
who challenged whom and why a challenge was declined. Each change is one transaction; the lobby
actions lock the match row and queue their side effects (the invitation's notification) on commit."""

from __future__ import annotations

from types import SimpleNamespace

from django.db import transaction
from ninja.errors import HttpError

from api.lobby import create
from api.models import Challenge
from api.schemas import InviteSeatIn
from games import actions
from games.models import Match


def challenge_of(challenge_id: int, user) -> Challenge:
    """The challenge (its id is its match's) if `user` sent or received it, else a 404."""
    found = Challenge.objects.select_related("match", "challenger", "challenged").filter(match_id=challenge_id).first()
    if found is None or user.pk not in (found.challenger_id, found.challenged_id):
        raise HttpError(404, "There is no such challenge of yours.")
    return found


def do_challenge(user, body) -> Challenge:
    """A new match with the challenged player invited to the seat after mine (the new-match rules)."""
    as_match = SimpleNamespace(
        game=body.game,
        others=[InviteSeatIn(kind="invite", username=body.username), *body.others],
        options=body.options,
        clock=body.clock,
        spectators_read_chat=body.spectators_read_chat,
        rated=body.rated,
    )
    with transaction.atomic():
        match = create(user, as_match)
        challenged = match.seats.get(number=1).user
        return Challenge.objects.create(match=match, challenger=user, challenged=challenged)


def check_challenged(challenge: Challenge, user) -> None:
    if challenge.challenged_id != user.pk:
        raise actions.NotAllowed("Only the challenged player can answer a challenge.")


def do_accept(challenge_id: int, user) -> Challenge:
    challenge = challenge_of(challenge_id, user)
    check_challenged(challenge, user)
    actions.do_join(challenge.match_id, user)
    return challenge_of(challenge_id, user)


def do_decline(challenge_id: int, user, reason: str) -> Challenge:
    """The challenged player declines with a reason: their seat is given up and the match cancelled,
    so the challenge is over; the challenger reads the reason on the challenge."""
    challenge = challenge_of(challenge_id, user)
    check_challenged(challenge, user)
    with transaction.atomic():
        Match.objects.select_for_update().get(pk=challenge.match_id)
        challenge = Challenge.objects.select_for_update().get(pk=challenge.pk)
        answered = challenge.match.seats.filter(user=user, accepted=True).exists()
        if challenge.match.status != Match.Status.OPEN or answered:
            raise actions.Conflict("This challenge is no longer waiting for an answer.")
        actions.do_leave(challenge.match_id, user)
        actions.do_cancel(challenge.match_id, challenge.challenger)
        challenge.decline_reason = reason
        challenge.save(update_fields=["decline_reason"])
    return challenge_of(challenge_id, user)


def do_cancel(challenge_id: int, user) -> Challenge:
    challenge = challenge_of(challenge_id, user)
    if challenge.challenger_id != user.pk:
        raise actions.NotAllowed("Only the challenger can cancel a challenge.")
    if challenge.match.status != Match.Status.OPEN:
        raise actions.Conflict("This challenge is no longer waiting for an answer.")
    actions.do_cancel(challenge.match_id, user)
    return challenge_of(challenge_id, user)
