"""The code's shape that review asks for, held by a test: no function in games/ over 60 lines, and
the actions take their flags and options by name."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
LIMIT = 60


def test_no_function_in_games_is_over_sixty_lines():
    long = []
    for path in sorted(GAMES.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > LIMIT:
                    long.append(f"{path.relative_to(GAMES.parent)}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def action_modules() -> list[Path]:
    """Every module of state changes: games/actions/ and each app's actions.py (and *_actions.py)."""
    found = sorted((GAMES / "actions").glob("*.py"))
    return found + sorted(p for p in ROOT.glob("*/*actions.py") if p.parent.name not in ("tests", ".venv"))


def test_actions_take_their_flags_and_options_by_name():
    """A public action's parameters with a default (options, flags, what it may leave out) and its
    yes-or-no ones are keyword-only: `do_x(match, user, quiet=True)`, never `do_x(match, user, True)`."""
    positional = []
    modules = action_modules()
    assert len(modules) >= 15
    for path in modules:
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
                continue
            args = [*node.args.posonlyargs, *node.args.args]
            defaults = [None] * (len(args) - len(node.args.defaults)) + list(node.args.defaults)
            for arg, default in zip(args, defaults, strict=True):
                is_flag = arg.annotation is not None and ast.unparse(arg.annotation) == "bool"
                if default is not None or is_flag:
                    positional.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}({arg.arg})")
    assert positional == []
