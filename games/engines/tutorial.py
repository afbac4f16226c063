"""Tutorials: a game taught on its real board, from fixed positions, against a scripted opponent.

A tutorial is data (each game's `tutorial.py`): lessons, each a fixed position (a new game from a
seed and options, a patch of state keys laid over it, then moves played to reach it) and steps. A
step says what to do and names the one move it teaches, or none (a step to read, the board without
controls); after the move the scripted opponent plays the step's replies. Plain Python like the engines: the site keeps
only which step a learner is at, and every position is rebuilt from the data by the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Engine, IllegalMove, Move, State, json_copy
from games.engines.words import Msg, _


@dataclass(frozen=True)
class Step:
    say: Msg  # what to do now (or what to look at, on a step without a move)
    move: Move | None = None  # the move this step teaches; None: the learner reads and goes on
    then: Msg | None = None  # what the move did, said on the next step
    replies: tuple[Move, ...] = ()  # the scripted opponent's moves after it, in order
    # The board's selections leading to the move's button, in click order (a piece to pick: "a3"):
    # the page points out the next one, and the browser test clicks them.
    look: tuple[str, ...] = ()
    other: Msg | None = None  # said when the learner plays another legal move


@dataclass(frozen=True)
class Lesson:
    title: Msg
    seed: int
    steps: tuple[Step, ...]
    options: dict[str, Any] = field(default_factory=dict)
    patch: dict[str, Any] = field(default_factory=dict)  # state keys laid over the new game (a dealt hand)
    before: tuple[Move, ...] = ()  # moves played from there, by whichever seat is to act, to reach the position


@dataclass(frozen=True)
class Tutorial:
    players: int
    seat: int  # the learner's seat; every other seat is the scripted opponent
    lessons: tuple[Lesson, ...]
    goal: Msg  # the game's goal, said again at the end
    minutes: int  # about how long a newcomer takes
    picture: int = 0  # the step whose position the rules page draws
    # The rules page's picture of each rule that has one: a name its template asks for (pictures.<name>)
    # to the step whose position shows the rule, so the pictures come from the same fixed positions.
    pictures: dict[str, int] = field(default_factory=dict)

    @property
    def steps(self) -> list[tuple[Lesson, int, Step]]:
        """Every step in order, with its lesson and its index within the lesson."""
        return [(lesson, index, step) for lesson in self.lessons for index, step in enumerate(lesson.steps)]

    def __len__(self) -> int:
        return sum(len(lesson.steps) for lesson in self.lessons)


@dataclass(frozen=True)
class Verdict:
    taught: bool  # the move is the one the step teaches
    reason: str = ""  # why not: the engine's own words for an illegal move, else the step's "other"
    illegal: bool = False


def lesson_start(engine: Engine, tutorial: Tutorial, lesson: Lesson) -> State:
    state = engine.new_state(tutorial.players, lesson.options, lesson.seed)
    state.update(json_copy(lesson.patch))
    for move in lesson.before:
        state, _log = engine.apply(state, engine.to_act(state)[0], move)
    return state


def position(engine: Engine, tutorial: Tutorial, at: int) -> State:
    """The state the learner sees at step `at` (0-based): its lesson's start, then every earlier step
    of the lesson played, the opponent's replies included."""
    lesson, index, _step = tutorial.steps[at]
    state = lesson_start(engine, tutorial, lesson)
    for step in lesson.steps[:index]:
        state = play_step(engine, tutorial, state, step)
    return state


def play_step(engine: Engine, tutorial: Tutorial, state: State, step: Step) -> State:
    if step.move is not None:
        state, _log = engine.apply(state, tutorial.seat, step.move)
    for reply in step.replies:
        acting = [seat for seat in engine.to_act(state) if seat != tutorial.seat]
        state, _log = engine.apply(state, acting[0], reply)
    return state


def step_logs(engine: Engine, tutorial: Tutorial, at: int) -> list[dict[str, Any]]:
    """The log entries of step `at`'s move and its replies (what the learner reads it did)."""
    state = position(engine, tutorial, at)
    step = tutorial.steps[at][2]
    entries: list[dict[str, Any]] = []
    if step.move is not None:
        state, log = engine.apply(state, tutorial.seat, step.move)
        entries += log
    for reply in step.replies:
        acting = [seat for seat in engine.to_act(state) if seat != tutorial.seat]
        state, log = engine.apply(state, acting[0], reply)
        entries += log
    return entries


def judge(engine: Engine, tutorial: Tutorial, at: int, move: Move) -> Verdict:
    """Whether `move` is the one step `at` teaches; if not, why, in the engine's words where illegal."""
    step = tutorial.steps[at][2]
    if step.move is not None and same_move(move, step.move):
        return Verdict(taught=True)
    state = position(engine, tutorial, at)
    try:
        engine.check_move_fields(move)
        after, _log = engine.apply(state, tutorial.seat, move)
    except IllegalMove as error:
        return Verdict(taught=False, reason=str(error), illegal=True)
    # The same move written another way (two flowers in the other order) leaves the same state.
    if step.move is not None and after == engine.apply(state, tutorial.seat, step.move)[0]:
        return Verdict(taught=True)
    return Verdict(taught=False, reason=step.other or _("That is a legal move, but this step teaches another one."))


def same_move(one: Move, other: Move) -> bool:
    return json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)
