"""Dizzy Duo Battle (seed 000; rulings DD-1 to DD-9). The engine is in engine.py, the bots in bots.py."""

from games.engines.dizzy_duo_battle.engine import ENGINE, DizzyDuoBattle

__all__ = ["ENGINE", "DizzyDuoBattle"]
