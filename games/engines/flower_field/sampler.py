"""Full Doubting Flower Field states consistent with one seat's view, and what a seat can know about
the opponent's hidden flowers (for the hard bot's beliefs).

Everything but the opponent's two hidden flowers is public or the seat's own (FF-2 to FF-7). What
the view tells about those two flowers:
- a cell where the seat's own flower was cancelled held one of theirs (FF-2), colour unknown;
- an explosion on a cell that was not the seat's own flower was theirs (FF-4), colour unknown;
- the rest are live, on a cell never planted on (planting there would have exploded them), not D4,
  not one of the seat's own hidden cells (a shared cell cancels both), colour unknown;
- a challenge-challenge that failed proved the claim true: every empty named cell held one of their
  live flowers, in colours that make the two fields equal; one that succeeded proved it false (FF-7).
The sampler deals the live flowers at random among the possible cells and colours, and keeps a
deal that agrees with every judged claim (rejection, a bounded number of tries).

Things no view can reproduce: the generator's seed (a fresh one), the truth of claims nobody judged
(recomputed on the sampled flowers), and which planting an older, closed challenge undid.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from games.engines.flower_field.rules import CELL_INDEX, CELLS, CENTRE, COLOURS, fields_equal

State = dict[str, Any]
View = dict[str, Any]

MAX_TRIES = 200  # rejection tries for a deal that agrees with every judged claim


def _cells(names: list[str]) -> list[int]:
    return [CELL_INDEX[name] for name in names]


class Facts:
    """What one seat knows for sure about the opponent's hidden flowers, from its view."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.opponent = 1 - self.seat
        mine = {h["cell"]: h for h in view["hidden"]}
        self.cancelled = [cell for cell, h in mine.items() if h["status"] == "cancelled"]
        self.exploded = [
            cell for cell in view["explosions"] if not (cell in mine and mine[cell]["status"] == "exploded")
        ]
        self.live_count = max(0, 2 - len(self.cancelled) - len(self.exploded))
        ever = {f["cell"] for p in view["plantings"] for f in p["flowers"]}
        blocked = set(view["board"]) | ever | set(mine) | set(view["explosions"]) | {CENTRE}
        self.possible = [cell for cell in CELLS if cell not in blocked]  # where a live one may lie
        # Judged claims of the opponent: (claim, proven true?).
        self.judged = [
            (ch, ch["doubt"] == "failed")
            for ch in view["challenges"]
            if ch["seat"] == self.opponent and ch["empty"] and ch["doubt"] in ("failed", "successful")
        ]

    def claim_possible(self, a: list[str], b: list[str], empty: list[str], seen: dict[str, str | None]) -> bool:
        """Whether some live flowers of the opponent could make this claim true: every empty cell
        may hold one, there are enough of them, and some colours make the two fields equal."""
        if len(empty) > self.live_count or any(cell not in self.possible for cell in empty):
            return False
        return fillable(a, b, empty, seen)


def fillable(a: list[str], b: list[str], empty: list[str], seen: dict[str, str | None]) -> bool:
    """Whether some colours of the empty cells make fields a and b equal (FF-5's judgement)."""
    colours = {CELL_INDEX[cell]: colour for cell, colour in seen.items() if colour}
    for filling in itertools.product(COLOURS, repeat=len(empty)):
        trial = {**colours, **{CELL_INDEX[cell]: colour for cell, colour in zip(empty, filling)}}
        if fields_equal(trial, _cells(a), _cells(b)):
            return True
    return False


def claim_true(challenge: dict[str, Any], flowers: dict[str, str]) -> bool:
    """FF-7's truth of a claim given the claimer's live flowers then (cell -> colour)."""
    if any(cell not in flowers for cell in challenge["empty"]):
        return False
    colours = {CELL_INDEX[c]: k for c, k in challenge["seen"].items() if k}
    colours.update({CELL_INDEX[c]: flowers[c] for c in challenge["empty"]})
    return fields_equal(colours, _cells(challenge["a"]), _cells(challenge["b"]))


def sample_hidden(facts: Facts, rng: random.Random) -> list[dict[str, str]]:
    """The opponent's two hidden flowers, consistent with the facts (best effort after MAX_TRIES)."""
    fixed = [{"cell": c, "colour": rng.choice(COLOURS), "status": "cancelled"} for c in facts.cancelled]
    fixed += [{"cell": c, "colour": rng.choice(COLOURS), "status": "exploded"} for c in facts.exploded]
    fixed = fixed[:2]
    live: list[dict[str, str]] = []
    for _ in range(MAX_TRIES):
        count = min(facts.live_count, len(facts.possible), 2 - len(fixed))
        cells = rng.sample(facts.possible, count)
        live = [{"cell": c, "colour": rng.choice(COLOURS), "status": "live"} for c in cells]
        # A flower live when the claim was judged may have exploded since: count exploded ones too.
        then = {h["cell"]: h["colour"] for h in live + fixed if h["status"] != "cancelled"}
        if all(claim_true(ch, then) == proven for ch, proven in facts.judged):
            break
    flowers = fixed + live
    return sorted(flowers, key=lambda h: CELL_INDEX[h["cell"]])


def _undone_index(view: View) -> int | None:
    """The planting the pending challenge undid: the newest one not standing with those flowers."""
    pending = view["pending"]
    if pending is None:
        return None
    for index in range(len(view["plantings"]) - 1, -1, -1):
        planting = view["plantings"][index]
        if not planting["standing"] and planting["flowers"] == pending["undone"]:
            return index
    return None


def sample_state(view: View, rng: random.Random, facts: Facts | None = None) -> State:
    """A full state that `view`'s seat cannot tell from the real one (see the module docstring)."""
    facts = facts or Facts(view)
    seat = view["seat"]
    hidden: list[Any] = [None, None]
    hidden[seat] = [dict(h) for h in view["hidden"]] if view["hidden_chosen"][seat] else None
    hidden[1 - seat] = sample_hidden(facts, rng) if view["hidden_chosen"][1 - seat] else None
    challenges = []
    pending_index = None
    for index, shown in enumerate(view["challenges"]):
        challenge = {key: value for key, value in shown.items() if key != "truth"}
        challenge["seen"] = dict(shown["seen"])
        challenge["undone"] = None
        if view["pending"] is not None and index == len(view["challenges"]) - 1:
            pending_index = index
            challenge["undone"] = _undone_index(view)
        owner = hidden[challenge["seat"]] or []
        flowers = {h["cell"]: h["colour"] for h in owner if h["status"] == "live"}
        if not challenge["empty"]:
            challenge["truth"] = fillable(challenge["a"], challenge["b"], [], challenge["seen"])
        elif challenge["doubt"] in ("failed", "successful"):
            challenge["truth"] = challenge["doubt"] == "failed"  # FF-7: the judgement is public
        else:
            challenge["truth"] = claim_true(challenge, flowers)
        challenges.append(challenge)
    return {
        "players": 2,
        "options": {"advantage": str(view["advantage"])},
        "rng": {"seed": str(rng.getrandbits(64)), "draws": 0},
        "phase": view["phase"],
        "advantage": view["advantage"],
        "first": view["first"],
        "turn": view["turn"],
        "redo": view["redo"],
        "lives": list(view["lives"]),
        "board": dict(view["board"]),
        "plantings": [
            {
                "seat": p["seat"],
                "flowers": [dict(f) for f in p["flowers"]],
                "exploded": list(p["exploded"]),
                "standing": p["standing"],
            }
            for p in view["plantings"]
        ],
        "hidden": hidden,
        "explosions": list(view["explosions"]),
        "challenges": challenges,
        "give_ups": list(view["give_ups"]),
        "pending": pending_index,
        "last_planter": view["last_planter"],
        "moves": view.get("moves", 0),
        "result": None,
    }
