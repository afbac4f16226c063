"""The games of the site: one line per game package, each declaring a `SPEC` (games/engines/spec.py).

Everything else (names, engines, the site's forms and pages) is derived from these specs.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from games.engines.base import Bot, Engine
from games.engines.spec import GameSpec

GAME_PACKAGES: list[str] = [
    "games.engines.solitaire_chess",
    "games.engines.flower_field",
    "games.engines.dizzy_duo_battle",
    "games.engines.lizzy_ghosties",
]

SPECS: dict[str, GameSpec] = {}
for _package in GAME_PACKAGES:
    _spec: GameSpec = importlib.import_module(_package).SPEC
    SPECS[_spec.slug] = _spec

# Every game of the site, slug -> name.
GAMES: dict[str, str] = {slug: spec.name for slug, spec in SPECS.items()}


def get_spec(slug: str) -> GameSpec:
    if slug not in SPECS:
        raise KeyError(f"no game {slug!r}")
    return SPECS[slug]


def get_engine(slug: str) -> Engine:
    return get_spec(slug).engine


def available_engines() -> dict[str, Engine]:
    return {slug: spec.engine for slug, spec in SPECS.items()}


def get_bots(slug: str) -> Mapping[str, Bot]:
    """The game's bots by level (its spec names them; every game has "random")."""
    return get_spec(slug).bots
