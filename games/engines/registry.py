"""Engines by slug: the site, bots, selfplay and the conformance test look games up here."""

from __future__ import annotations

import importlib

from games.engines.base import Engine

# Every game of the site, slug -> name.
GAMES: dict[str, str] = {
    "solitaire-chess": "Solitaire Chess",
    "doubting-flower-field": "Doubting Flower Field",
    "dizzy-duo-battle": "Dizzy Duo Battle",
    "lizzy-ghosties": "Lizzy Ghosties",
}

# Games whose engine is built: slug -> the module that defines ENGINE.
ENGINE_MODULES: dict[str, str] = {
    "solitaire-chess": "games.engines.solitaire_chess",
    "dizzy-duo-battle": "games.engines.dizzy_duo_battle",
    "lizzy-ghosties": "games.engines.lizzy_ghosties",
    "doubting-flower-field": "games.engines.flower_field",
}


def get_engine(slug: str) -> Engine:
    if slug not in ENGINE_MODULES:
        raise KeyError(f"no engine for {slug!r}")
    return importlib.import_module(ENGINE_MODULES[slug]).ENGINE


def available_engines() -> dict[str, Engine]:
    return {slug: get_engine(slug) for slug in ENGINE_MODULES}
