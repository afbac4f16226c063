"""The rules pages' pictures: the game's own board, drawn by its presenter and template from fixed
positions of its tutorial (games/engines/tutorial.py), so they never drift from the game."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engines import tutorial as tutorials
from games.engines.registry import get_spec
from games.engines.spec import BoardInput

# The name of the picture at the top of a rules page ("the game in one minute"): the tutorial's `picture`.
MINUTE = "minute"


@dataclass(frozen=True)
class PictureMatch:
    """What a board template reads of its match: where its links and its move form go (here, and on
    a tutorial's page, to the tutorial)."""

    url: str
    move_url: str
    id: int = 0


@dataclass(frozen=True)
class PictureView:
    match: PictureMatch


def board_picture(slug: str, at: int | None = None, *, ids: str = "") -> SafeString:
    """The board at the tutorial's step `at` (its picture step when None), seen from the learner's
    seat, with no controls. `ids` goes before every id the board template writes, so that several
    boards can share a page (the board's own page leaves it empty)."""
    spec = get_spec(slug)
    tutorial = spec.tutorial
    state = tutorials.position(spec.engine, tutorial, tutorial.picture if at is None else at)
    names = [_("Player %(number)s") % {"number": seat + 1} for seat in range(tutorial.players)]
    given = BoardInput(
        view=spec.engine.view(state, tutorial.seat),
        legal=[],
        seat=tutorial.seat,
        my_turn=False,
        names=names,
        reader=None,
    )
    url = reverse("tutorial", args=[slug])
    context = {"board": spec.present(given), "pv": PictureView(PictureMatch(url=url, move_url=url)), "idp": ids}
    return mark_safe(render_to_string(spec.board_template, context, using="jinja2"))


def rules_pictures(slug: str) -> dict[str, SafeString]:
    """Every picture of the game's rules page by name: the minute's, then one per rule that has one
    (Tutorial.pictures), each with its own ids."""
    tutorial = get_spec(slug).tutorial
    steps = {MINUTE: tutorial.picture, **tutorial.pictures}
    return {name: board_picture(slug, at, ids=f"pic-{name}-") for name, at in steps.items()}
