"""Tutorials: anyone may take one, signed in or not; a signed-in player's progress is kept.

The page shows the learner's step; a move or "Next" is posted with the step it was chosen on, so a
repeated or stale submission changes nothing (409)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.actions.common import ActionError
from games.actions.play import parse_move
from games.engines import tutorial as tutorials
from games.engines.registry import SPECS, get_engine
from games.i18n import tr
from learn.page import TutorialPage, tutorial_of, tutorial_page
from learn.progress import do_advance, do_restart, finished_games, step_of


def learn_index(request: HttpRequest) -> HttpResponse:
    reached = finished_games(request)
    rows = [
        (spec, len(spec.tutorial), min(reached.get(slug, 0), len(spec.tutorial)))
        for slug, spec in SPECS.items()
        if spec.tutorial is not None
    ]
    return render(request, "learn/index.html", {"rows": rows}, using="jinja2")


def _learner(request: HttpRequest) -> str:
    return request.user.get_username() if request.user.is_authenticated else _("Guest")


def _render(request: HttpRequest, page: TutorialPage, status: int = 200) -> HttpResponse:
    name = "learn/_tutorial.html" if request.htmx else "learn/tutorial.html"
    return render(request, name, {"page": page}, status=status, using="jinja2")


def _tutorial_or_404(slug: str):
    tutorial = tutorial_of(slug)
    if tutorial is None:
        raise Http404(_("This game has no tutorial."))
    return tutorial


def tutorial(request: HttpRequest, slug: str) -> HttpResponse:
    _tutorial_or_404(slug)
    page = tutorial_page(slug, step_of(request, slug), learner=_learner(request), select=request.GET.get("select", ""))
    return _render(request, page)


def _posted_step(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("step", ""))
    except ValueError:
        return None


def _refused(request: HttpRequest, slug: str, message: str, status: int) -> HttpResponse:
    page = tutorial_page(slug, step_of(request, slug), learner=_learner(request))
    page.message = message
    return _render(request, page, status)


def _stale(request: HttpRequest, slug: str) -> HttpResponse:
    """A repeated or stale submission: nothing changes, the learner sees where they are."""
    return _refused(request, slug, _("That step is already behind you: here is where you are now."), 409)


def _advance(request: HttpRequest, slug: str, seen: int, last: int) -> HttpResponse:
    if not do_advance(request, slug, seen=seen, last=last):
        return _stale(request, slug)
    if request.htmx:
        return _render(request, tutorial_page(slug, seen + 1, learner=_learner(request)))
    return redirect("tutorial", slug)


@require_POST
def tutorial_move(request: HttpRequest, slug: str) -> HttpResponse:
    tutorial = _tutorial_or_404(slug)
    seen = _posted_step(request)
    if seen is None or seen != step_of(request, slug) or seen >= len(tutorial):
        return _stale(request, slug)
    try:
        move = parse_move(request.POST.get("move", ""))
    except ActionError as error:
        return _refused(request, slug, str(error), 400)
    verdict = tutorials.judge(get_engine(slug), tutorial, seen, move)
    if not verdict.taught:
        status = 400 if verdict.illegal else 200
        return _refused(request, slug, _("Not this time: %(reason)s") % {"reason": tr(verdict.reason)}, status)
    return _advance(request, slug, seen, len(tutorial))


@require_POST
def tutorial_next(request: HttpRequest, slug: str) -> HttpResponse:
    """Go on from a step that teaches no move (one that does is passed by its move only)."""
    tutorial = _tutorial_or_404(slug)
    seen = _posted_step(request)
    if seen is None or seen != step_of(request, slug) or seen >= len(tutorial):
        return _stale(request, slug)
    if tutorial.steps[seen][2].move is not None:
        return _refused(request, slug, _("This step is passed by playing its move."), 400)
    return _advance(request, slug, seen, len(tutorial))


@require_POST
def tutorial_restart(request: HttpRequest, slug: str) -> HttpResponse:
    _tutorial_or_404(slug)
    do_restart(request, slug)
    return redirect("tutorial", slug)
