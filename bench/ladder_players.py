"""Scripted reference players for the bot ladder (bench/ladder.py), each a few dozen lines that read
their seat's view only, as a person scripting a strategy would. They are not site levels.

- every game: "greedy", a one-move look-ahead;
- Doubting Flower Field: "liar" (claims a hidden flower in a pair of fields no colour can make
  equal, again and again), "bluffer" (claims a hidden flower on the same cells whenever it may),
  "honest" (never bluffs), "doubter" (challenges back every claim), "credulous" (never challenges
  back). Each plays like `normal` otherwise (safe plantings, true challenges).
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.dizzy_cards import hand_power
from games.engines.flower_field import bots as ff
from games.engines.flower_field.rules import canonical_field
from games.engines.solitaire_chess import rules as sc_rules

Move = dict[str, Any]
View = dict[str, Any]


# --- Solitaire Chess ------------------------------------------------------------------------------
def sc_greedy(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Captures, else the card that skips the fewest ranks, else places a piece."""
    if view["phase"] != "play":
        return legal[0] if legal[0]["type"] == "order" else rng.choice(legal)
    seat = view["viewer"]
    stacks = view["players"][seat]["stacks"]

    def score(move: Move) -> float:
        if move["type"] == "place":
            return 5.0
        if move["to"] in view["pieces"]:
            return 15.0
        card = view["cards"][move["to"]]
        skip = sc_rules.rank_of(card) - sc_rules.top_rank(stacks[sc_rules.suit_of(card)]) - 1
        return 20.0 - 2.0 * skip - (10.0 if move["type"] == "swap" else 0.0)

    return max(legal, key=lambda m: (score(m), rng.random()))


# --- Dizzy Duo Battle -----------------------------------------------------------------------------
def _best_six(seven: list[str]) -> tuple[int, str]:
    best = max(set(seven), key=lambda card: hand_power([c for i, c in enumerate(seven) if i != seven.index(card)]))
    rest = list(seven)
    rest.remove(best)
    return hand_power(rest), best


def ddb_greedy(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Attacks as soon as it may; takes the open card when it raises the hand's power."""
    attacks = [m for m in legal if m["type"] == "attack"]
    if attacks:
        return max(attacks, key=lambda m: (hand_power([c for c in view["hand"] if c != m.get("card")]), rng.random()))
    hand = view["hand"]
    if view["phase"] == "take":
        take_open = {"type": "take", "from": "open"}
        if view["open_top"] is not None and take_open in legal:
            if _best_six(hand + [view["open_top"]])[0] > hand_power(hand):
                return take_open
        return {"type": "take", "from": "blind"}
    return {"type": "discard", "card": _best_six(hand)[1]}


# --- Lizzy Ghosties -------------------------------------------------------------------------------
LG_PRIORITY = {"ghost_double": 5, "steal": 4, "ghost_steal": 4, "take_burn": 4, "move": 2, "burn": 1, "skip": 0}


def lg_greedy(view: View, legal: list[Move], rng: random.Random) -> Move:
    """The move that gains most cards at once (a double, then a steal from the richest), never gives."""
    cards = {seat["seat"]: seat["cards"] for seat in view["seats"]}

    def score(move: Move) -> tuple[float, float, float]:
        victim = move.get("from")
        return (LG_PRIORITY.get(move["type"], -1), cards.get(victim, 0) if isinstance(victim, int) else 0, rng.random())

    return max(legal, key=score)


# --- Doubting Flower Field ------------------------------------------------------------------------
def _ff_scripted(view: View, legal: list[Move], rng: random.Random, bluff: bool, doubt: str) -> Move:
    """`normal`'s play with a fixed claim and doubt policy; doubt is "always", "never" or "proof"."""
    kinds = {m["type"] for m in legal}
    if "challenge_challenge" in kinds:
        if doubt == "always":
            return {"type": "challenge_challenge"}
        if doubt == "never":
            return {"type": "accept"}
        return ff.normal_bot(view, legal, rng) if _provably_false(view) else {"type": "accept"}
    if bluff and "give_up" in kinds:
        know = ff.Knowledge(view)
        visible, hidden = ff.certain_challenges(know, legal)
        if not visible and not hidden:
            claims = [m for m in legal if m["type"] == "challenge" and _empty_cells(view, m)]
            if claims:
                # The same cells every time: the claim whose empty cells come first on the board.
                return min(claims, key=lambda m: (sorted(_empty_cells(view, m)), m["a"], m["b"]))
    return ff.normal_bot(view, legal, rng)


def _empty_cells(view: View, move: Move) -> list[str]:
    return sorted({c for c in move["a"] + move["b"] if c not in view["board"]})


def _provably_false(view: View) -> bool:
    """What `normal` would doubt whatever: a claim it knows cannot be true."""
    know = ff.Knowledge(view)
    pending = view["pending"]
    colours = dict(know.colours)
    for flower in pending["undone"]:
        colours[ff.CELL_INDEX[flower["cell"]]] = flower["colour"]
    a = [ff.CELL_INDEX[c] for c in pending["a"]]
    b = [ff.CELL_INDEX[c] for c in pending["b"]]
    empty = [ff.CELL_INDEX[c] for c in pending["empty"]]
    return ff._chance_false(know, colours, a, b, empty, hard=True) >= 1.0


def ff_liar(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Whenever it may challenge, claims a hidden flower in a field of another shape than the one it
    names beside it: a claim no colour can make true (the issue's scripted player)."""
    if any(m["type"] == "give_up" for m in legal) and view["last_planting"]:
        claim = _impossible_claim(view)
        if claim is not None:
            return claim
    return _ff_scripted(view, legal, rng, bluff=False, doubt="proof")


def _impossible_claim(view: View) -> Move | None:
    board = {ff.CELL_INDEX[c] for c in view["board"]}
    touch = {ff.CELL_INDEX[c] for c in view["last_planting"]["cells"]}
    grey = dict.fromkeys(range(49), "red")  # one colour everywhere: compares shapes only
    full = [p for p in ff.PLACEMENTS if touch.intersection(p) and all(c in board for c in p)]
    holed = [p for p in ff.PLACEMENTS if sum(c not in board for c in p) == 1]
    for p in full:
        for q in holed:
            if canonical_field(p, grey) != canonical_field(q, grey):
                return {"type": "challenge", "a": [ff.CELLS[c] for c in p], "b": [ff.CELLS[c] for c in q]}
    return None


def ff_bluffer(view: View, legal: list[Move], rng: random.Random) -> Move:
    return _ff_scripted(view, legal, rng, bluff=True, doubt="proof")


def ff_honest(view: View, legal: list[Move], rng: random.Random) -> Move:
    return _ff_scripted(view, legal, rng, bluff=False, doubt="proof")


def ff_doubter(view: View, legal: list[Move], rng: random.Random) -> Move:
    return _ff_scripted(view, legal, rng, bluff=False, doubt="always")


def ff_credulous(view: View, legal: list[Move], rng: random.Random) -> Move:
    return _ff_scripted(view, legal, rng, bluff=False, doubt="never")


SCRIPTED: dict[str, dict[str, Any]] = {
    "solitaire-chess": {"greedy": sc_greedy},
    "dizzy-duo-battle": {"greedy": ddb_greedy},
    "lizzy-ghosties": {"greedy": lg_greedy},
    "doubting-flower-field": {
        "liar": ff_liar,
        "bluffer": ff_bluffer,
        "honest": ff_honest,
        "doubter": ff_doubter,
        "credulous": ff_credulous,
    },
}
