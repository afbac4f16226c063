"""Where a learner is in each tutorial: a signed-in player's row, a visitor's session."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from learn.models import TutorialProgress


def _session_key(slug: str) -> str:
    return f"tutorial:{slug}"


def step_of(request: HttpRequest, slug: str) -> int:
    if request.user.is_authenticated:
        row = TutorialProgress.objects.filter(user=request.user, game=slug).only("step").first()
        return row.step if row else 0
    return int(request.session.get(_session_key(slug), 0))


def finished_games(request: HttpRequest) -> dict[str, int]:
    """slug -> step reached, for the tutorials list (a visitor's from the session)."""
    if request.user.is_authenticated:
        return dict(TutorialProgress.objects.filter(user=request.user).values_list("game", "step"))
    prefix = _session_key("")
    return {key.removeprefix(prefix): int(value) for key, value in request.session.items() if key.startswith(prefix)}


def do_advance(request: HttpRequest, slug: str, *, seen: int, last: int) -> bool:
    """Move the learner on from step `seen`; False, changing nothing, when they are no longer there
    (a repeated or stale submission: of two at once, one wins). Reaching `last` (the tutorial's
    length) marks it finished, once."""
    if not request.user.is_authenticated:
        if step_of(request, slug) != seen:
            return False
        request.session[_session_key(slug)] = seen + 1
        return True
    with transaction.atomic():
        TutorialProgress.objects.get_or_create(user=request.user, game=slug)
        row = TutorialProgress.objects.select_for_update().get(user=request.user, game=slug)
        if row.step != seen:
            return False
        row.step = seen + 1
        if row.step >= last and row.finished is None:
            row.finished = timezone.now()
        row.save()
    return True


def do_restart(request: HttpRequest, slug: str) -> None:
    if request.user.is_authenticated:
        TutorialProgress.objects.filter(user=request.user, game=slug).update(step=0)
    else:
        request.session[_session_key(slug)] = 0
