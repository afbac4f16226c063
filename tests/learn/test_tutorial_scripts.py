"""Every game's tutorial plays to its end through the engine, each step's move legal and taught."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engines import tutorial as tutorials
from games.engines.registry import SPECS
from tests.dutch_words import catalogue

BASE = Path(__file__).resolve().parents[2]

TUTORIALS = {slug: spec for slug, spec in SPECS.items() if spec.tutorial is not None}


@pytest.mark.parametrize("slug", list(TUTORIALS))
def test_the_tutorial_plays_to_its_end(slug):
    spec = TUTORIALS[slug]
    engine, tutorial = spec.engine, spec.tutorial
    assert len(tutorial) >= 5 and tutorial.minutes <= 5
    for at, (_lesson, _index, step) in enumerate(tutorial.steps):
        state = tutorials.position(engine, tutorial, at)
        engine.check_invariants(state)
        assert engine.result(state) is None, f"step {at}: the game is over"
        if step.move is None:
            assert not step.replies, f"step {at}: replies need a move before them"
            continue
        assert tutorial.seat in engine.to_act(state), f"step {at}: the learner is not to act"
        # Legal: apply() refuses an illegal move (a challenge of Flower Field is not in its legal list,
        # which would hold every pair of fields).
        assert tutorials.judge(engine, tutorial, at, step.move).taught
        after = tutorials.play_step(engine, tutorial, state, step)
        engine.check_invariants(after)


@pytest.mark.parametrize("slug", list(TUTORIALS))
def test_another_legal_move_is_not_taught_and_an_illegal_one_gets_the_engines_reason(slug):
    spec = TUTORIALS[slug]
    engine, tutorial = spec.engine, spec.tutorial
    at = next(at for at, (_l, _i, step) in enumerate(tutorial.steps) if step.move is not None)
    state = tutorials.position(engine, tutorial, at)
    taught = tutorial.steps[at][2].move
    other = next(m for m in engine.board_moves(state, tutorial.seat) if not tutorials.same_move(m, taught))
    verdict = tutorials.judge(engine, tutorial, at, other)
    assert not verdict.taught and not verdict.illegal and verdict.reason
    illegal = tutorials.judge(engine, tutorial, at, {"type": "no-such-move"})
    assert illegal.illegal and not illegal.taught and illegal.reason


@pytest.mark.parametrize("slug", list(TUTORIALS))
def test_the_board_never_sees_the_scripted_opponents_hidden_state(slug):
    """The page draws the learner's seat view, as a match does: nothing of the state but that."""
    spec = TUTORIALS[slug]
    engine, tutorial = spec.engine, spec.tutorial
    for at in range(len(tutorial)):
        view = engine.view(tutorials.position(engine, tutorial, at), tutorial.seat)
        assert "rng" not in view and "seed" not in str(view.keys())


@pytest.mark.parametrize("slug", list(TUTORIALS))
def test_every_word_of_the_tutorial_has_a_dutch_translation(slug):
    spec = TUTORIALS[slug]
    package = type(spec.engine).__module__.split(".")[2]
    known = catalogue(BASE / "games" / "engines" / package / "locale" / "nl" / "LC_MESSAGES" / "django.mo")
    tutorial = spec.tutorial
    words = [tutorial.goal, *(lesson.title for lesson in tutorial.lessons)]
    for _lesson, _index, step in tutorial.steps:
        words += [text for text in (step.say, step.then, step.other) if text is not None]
    assert [w.template for w in words if w.template not in known] == []


def test_the_flower_field_tutorial_ends_on_a_full_field_won_by_the_last_planter():
    """The lesson "The full field" (ruling FF-8): the learner plants the last two flowers, the Tutor
    passes (no challenge could be true), and equal lives go to the one who planted last."""
    spec = SPECS["doubting-flower-field"]
    engine, tutorial = spec.engine, spec.tutorial
    at = len(tutorial) - 1
    lesson, _index, step = tutorial.steps[at]
    assert lesson is tutorial.lessons[-1]
    state = tutorials.position(engine, tutorial, at)
    assert len(state["board"]) == 47 and state["lives"] == [3, 3]
    full, _log = engine.apply(state, tutorial.seat, step.move)
    assert full["phase"] == "final" and engine.legal_moves(full, 1 - tutorial.seat) == [{"type": "pass"}]
    end = tutorials.play_step(engine, tutorial, state, step)
    engine.check_invariants(end)
    assert len(end["board"]) == 49
    result = engine.result(end)
    assert result is not None and result.winners == [tutorial.seat]
    assert result.reason == "full field: equal lives, the last planter wins"
