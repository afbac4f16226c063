"""The states a Solitaire Chess view allows, for the bots' search: exactly one, since the game hides
nothing (the other games' samplers deal the hidden cards anew; here the view is the whole state but its
generator, which play never uses after the deal).
"""

from __future__ import annotations

from typing import Any

from games.engines.base import View
from games.engines.solitaire_chess import rules


def state_from_view(view: View) -> dict[str, Any]:
    """The full state a view shows (no hidden information); a dummy generator, unused in play.

    A piece's entry turn is only known as "just entered or not" (ruling SC-5 cares for no more)."""
    turn_number = view["turn_number"]
    pieces = {}
    for square, piece in view["pieces"].items():
        entered = None
        if piece["area"] == rules.PLAY:
            entered = turn_number - 1 if piece["just_entered"] else turn_number - 2
        pieces[square] = {"owner": piece["owner"], "entered": entered}
    players = view["players"]
    return {
        "ruleset": view["ruleset"],
        "advantage": view["advantage"],
        "first": view["first"],
        "phase": view["phase"],
        "turn": view["turn"],
        "turn_number": turn_number,
        "cards": dict(view["cards"]),
        "pieces": pieces,
        "in_hand": [p["pieces_to_place"] for p in players],
        "stacks": [{suit: list(cards) for suit, cards in p["stacks"].items()} for p in players],
        "captures": [p["captures"] for p in players],
        "pieces_lost": [p["pieces_lost"] for p in players],
        "out": [p["out"] for p in players],
        "out_reason": [p["out_reason"] for p in players],
        "out_order": list(view["out_order"]),
        "lost_on_time": view["lost_on_time"],
        "last_move": dict(view["last_move"]) if view["last_move"] else None,
        "rng": {"seed": "0", "draws": 0},
    }
