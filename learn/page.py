"""What a tutorial page shows: the step's words, what the last move did, and the game's real board.

The board is the game's own presenter and template, given the learner's seat view of the step's
position (the scripted opponent's hidden cards stay hidden, as in a match) and, on a step that
teaches a move, the learner's legal moves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.engines import tutorial as tutorials
from games.engines.registry import get_spec
from games.engines.spec import BoardInput
from games.engines.tutorial import Tutorial
from games.models import fill_names, texts_for
from games.pictures import PictureMatch, PictureView


@dataclass
class TutorialPage:
    slug: str
    game_name: str
    at: int  # the step shown, 0-based; == total: finished
    total: int
    minutes: int
    goal: Any
    lesson_titles: list[Any]
    lesson_number: int = 0  # 1-based, 0 when finished
    say: Any = ""
    teaches_move: bool = False
    then: Any = None  # what the last step's move did
    happened: list[str] = field(default_factory=list)  # the last step's log, in words
    look: list[str] = field(default_factory=list)  # links the board points out
    taught_json: str = ""
    board: Any = None
    pv: PictureView | None = None  # what the board template reads of its match: where its links go
    board_template: str = ""
    message: str = ""  # why a move was refused
    select: str = ""  # the board's selection so far

    @property
    def finished(self) -> bool:
        return self.at >= self.total

    @property
    def percent(self) -> int:
        return round(100 * self.at / self.total)


def tutorial_of(slug: str) -> Tutorial | None:
    try:
        return get_spec(slug).tutorial
    except KeyError:
        return None


def tutorial_page(slug: str, at: int, *, learner: str, select: str = "") -> TutorialPage:
    spec = get_spec(slug)
    tutorial = spec.tutorial
    at = max(0, min(at, len(tutorial)))
    page = TutorialPage(
        slug=slug,
        game_name=spec.name,
        at=at,
        total=len(tutorial),
        minutes=tutorial.minutes,
        goal=tutorial.goal,
        lesson_titles=[lesson.title for lesson in tutorial.lessons],
    )
    names = _names(tutorial, learner)
    if at > 0:
        _last_step(page, spec, tutorial, names)
    if not page.finished:
        _this_step(page, spec, tutorial, names, select)
    return page


def _names(tutorial: Tutorial, learner: str) -> list[str]:
    """The seats' names: the learner's own, and the Tutor (the first and second Tutor, in a game of three)."""
    if tutorial.players == 2:
        return [learner if seat == tutorial.seat else _("Tutor") for seat in range(2)]
    tutors = iter([_("first Tutor"), _("second Tutor"), _("third Tutor")])
    return [learner if seat == tutorial.seat else next(tutors) for seat in range(tutorial.players)]


def _last_step(page: TutorialPage, spec, tutorial: Tutorial, names: list[str]) -> None:
    step = tutorial.steps[page.at - 1][2]
    page.then = step.then
    placeholders = {f"p{seat}": name for seat, name in enumerate(names)}
    log = tutorials.step_logs(spec.engine, tutorial, page.at - 1)
    page.happened = [fill_names(text, placeholders) for text in texts_for(log, tutorial.seat, everything=False)]


def _this_step(page: TutorialPage, spec, tutorial: Tutorial, names: list[str], select: str) -> None:
    lesson, _index, step = tutorial.steps[page.at]
    engine = spec.engine
    state = tutorials.position(engine, tutorial, page.at)
    page.lesson_number = tutorial.lessons.index(lesson) + 1
    page.say = step.say
    page.teaches_move = step.move is not None
    page.look = list(step.look)
    page.select = select[:64]
    page.taught_json = json.dumps(step.move, separators=(",", ":"), sort_keys=True) if step.move else ""
    legal = engine.board_moves(state, tutorial.seat) if page.teaches_move else []
    given = BoardInput(
        view=engine.view(state, tutorial.seat),
        legal=legal,
        seat=tutorial.seat,
        my_turn=page.teaches_move,
        names=names,
        select=select[:64],
    )
    page.board = spec.present(given)
    page.board_template = spec.board_template
    url = reverse("tutorial", args=[page.slug])
    page.pv = PictureView(PictureMatch(url=url, move_url=reverse("tutorial_move", args=[page.slug])))
