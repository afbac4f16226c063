"""Dizzy Duo Battle (seed 000; rulings DD-1 to DD-9). The engine is in engine.py, its pure rules in
rules.py, the bots in bots.py (their deals in sampler.py), the board's presenter in board.py, the
game's words in phrases.py (a card's words are the Dizzy games' shared ones, ../dizzy_phrases.py)."""

from games.engines.dizzy_duo_battle import board, bots, tutorial
from games.engines.dizzy_duo_battle.engine import ENGINE, DizzyDuoBattle
from games.engines.spec import GameSpec, LiveClock

# The seed names no clock: 1 minute a turn and 5 reserve minutes, as Solitaire Chess (ALL-1).
SPEC = GameSpec(ENGINE, board.present, LiveClock(60, 5, 60), bots.BOTS, tutorial.TUTORIAL)

__all__ = ["ENGINE", "SPEC", "DizzyDuoBattle"]
