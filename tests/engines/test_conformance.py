"""One conformance test for every registered engine: the contract of games/engines/base.py."""

from __future__ import annotations

import ast
import itertools
import json
from pathlib import Path

import pytest

from games.engines.base import Engine
from games.engines.playout import play, replay
from games.engines.registry import GAMES, available_engines, get_bots
from tests.rule_vectors import vector_dirs, vector_files

ROOT = Path(__file__).resolve().parents[2]
ENGINES = available_engines()
PLAYOUTS_PER_SETUP = 2


def setups(engine: Engine):
    """Default options at every player count, and each option's other values at the smallest
    table (the engines' own tests go deeper; this keeps the contract check quick)."""
    for players in range(engine.min_players, engine.max_players + 1):
        yield players, engine.parse_options({}, players)
    for option in engine.options:
        if option.kind == "bool":
            values = [not option.default]
        elif option.kind == "choice":
            values = [value for value, _ in option.choices if value != option.default]
        else:
            values = []
        for value in values:
            yield engine.min_players, engine.parse_options({option.name: value}, engine.min_players)


def test_every_game_slug_is_known():
    assert set(GAMES) == {"solitaire-chess", "doubting-flower-field", "dizzy-duo-battle", "lizzy-ghosties"}
    assert set(ENGINES) <= set(GAMES)


def test_engines_do_not_import_django():
    for path in (ROOT / "games" / "engines").rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] != "django", f"{path} imports {name}: engines are plain Python"


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_random_playouts_keep_the_contract(slug):
    engine = ENGINES[slug]
    assert engine.slug == slug and "random" in get_bots(slug)
    for (players, options), index in itertools.product(list(setups(engine)), range(PLAYOUTS_PER_SETUP)):
        seed = 7919 * (index + 1) + players
        record = play(engine, players, options, seed, check=True)  # legal moves iff to act; pure apply
        assert record.result is not None, "a finished playout has a result"
        assert len(record.moves) <= engine.max_moves(players, options)
        state = record.final_state
        assert json.loads(json.dumps(state)) == state, "the state is JSON data"
        assert replay(engine, players, options, seed, record.moves) == state, "replay rebuilds the state"


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_views_never_hold_the_random_seed(slug):
    """Ruling ALL-2: the generator's state never reaches a view, not even after the end."""
    engine = ENGINES[slug]
    players = engine.min_players
    options = engine.parse_options({}, players)
    seed = 123456789123456789
    record = play(engine, players, options, seed, check=False)
    state = engine.new_state(players, options, seed)
    views_checked = 0
    for seat, move in [(None, None)] + record.moves:
        if move is not None:
            state, _ = engine.apply(state, seat, move)
        for viewer in [None, *range(players)]:
            text = json.dumps(engine.view(state, viewer))
            assert str(seed) not in text and '"rng"' not in text
            views_checked += 1
    assert views_checked > players


def test_illegal_garbage_moves_raise_a_readable_error():
    from games.engines.base import IllegalMove

    for engine in ENGINES.values():
        players = engine.min_players
        state = engine.new_state(players, engine.parse_options({}, players), 5)
        seat = engine.to_act(state)[0]
        for garbage in ({"type": "no-such-move"}, {"type": "move", "from": [], "to": None}, {"type": 7}):
            with pytest.raises(IllegalMove):
                engine.apply(state, seat, garbage)


def test_rule_vectors_folder_exists():
    from tests.conftest import require

    # tests/vectors is in the repository: a fresh clone has the public vectors.
    require(bool(vector_files()), f"no rule vectors found in {vector_dirs()} (see RULE_VECTORS_DIR)")


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.name)
def test_rule_vectors(path):
    data = json.loads(path.read_text())
    assert data.get("format") == 1, f"{path.name}: unknown format {data.get('format')}"
    slug = data["game"]
    assert slug in GAMES, f"{path.name}: unknown game {slug!r}"
    if slug not in ENGINES:
        pytest.skip(f"{path.name}: the {slug} engine is not built yet")
    engine = ENGINES[slug]
    failures = []
    for number, case in enumerate(data["cases"]):
        try:
            engine.check_vector(case)
        except AssertionError as error:
            failures.append(f"case {number} ({case.get('kind')}): {error}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_a_view_with_ended_shows_everything_mid_game(slug):
    """ALL-3: a match ended outside the rules (abort, adjudication) keeps a mid-game state; with
    ended=True the view must show everything, so what a hidden twin deals anew shows in it."""
    import random

    engine = ENGINES[slug]
    players = engine.min_players
    options = engine.parse_options({}, players)
    record = play(engine, players, options, 99, check=False)
    state = engine.new_state(players, options, 99)
    for seat, move in record.moves[: len(record.moves) // 2]:
        state, _ = engine.apply(state, seat, move)
    assert engine.result(state) is None
    for viewer in [None, *range(players)]:
        twin = engine.hidden_twin(state, viewer, random.Random(viewer or 0))
        differs = {k: v for k, v in twin.items() if k != "rng"} != {k: v for k, v in state.items() if k != "rng"}
        assert (engine.view(twin, viewer, ended=True) != engine.view(state, viewer, ended=True)) == differs
        assert '"rng"' not in json.dumps(engine.view(state, viewer, ended=True))
