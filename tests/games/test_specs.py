"""Game specs: the registry is derived from them, and a spec whose files are missing fails the system check."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games.checks import check_game_specs
from games.engines import registry
from games.engines.solitaire_chess import SPEC as SOLITAIRE_CHESS
from games.engines.spec import LiveClock
from games.models import TimeControl


def test_the_site_game_list_and_live_clocks_come_from_the_specs():
    assert registry.GAMES == {slug: spec.name for slug, spec in registry.SPECS.items()}
    assert len(registry.GAMES) == len(registry.GAME_PACKAGES) == 4
    live = SOLITAIRE_CHESS.live_clock
    figures = (live.turn_seconds, live.reserve_periods, live.period_seconds)
    assert TimeControl.figures("live", "solitaire-chess") == figures


def test_every_spec_passes_the_check():
    assert check_game_specs(None) == []


class RenamedEngine(type(SOLITAIRE_CHESS.engine)):
    slug = "no-such-game"


def test_a_spec_without_its_files_fails_at_start_up(monkeypatch):
    broken = dataclasses.replace(SOLITAIRE_CHESS, engine=RenamedEngine(), live_clock=LiveClock(0, 5, 60))
    monkeypatch.setitem(registry.SPECS, broken.slug, broken)
    messages = [error.msg for error in check_game_specs(None)]
    assert messages == [
        "no-such-game: the board template games/no-such-game/board.html is missing",
        "no-such-game: the rules page games/rules/no-such-game.html is missing",
        "no-such-game: the stylesheet static/css/games/no-such-game.css is missing",
        "no-such-game: the live clock LiveClock(turn_seconds=0, reserve_periods=5, period_seconds=60, extra_seconds=0,"
        " extra_for=()) is not a clock",
    ]
    with pytest.raises(SystemCheckError):
        call_command("check")
