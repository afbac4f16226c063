"""The rules pages' picture: the game's own board, drawn by its presenter and template from a fixed
position of its tutorial (games/engines/tutorial.py), so it never drifts from the game."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engines import tutorial as tutorials
from games.engines.registry import get_spec
from games.engines.spec import BoardInput


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


def board_picture(slug: str) -> SafeString:
    """The board at the tutorial's picture step, seen from the learner's seat, with no controls."""
    spec = get_spec(slug)
    tutorial = spec.tutorial
    state = tutorials.position(spec.engine, tutorial, tutorial.picture)
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
    context = {"board": spec.present(given), "pv": PictureView(PictureMatch(url=url, move_url=url))}
    return mark_safe(render_to_string(spec.board_template, context, using="jinja2"))
