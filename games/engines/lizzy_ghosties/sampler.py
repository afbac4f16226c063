"""Full Lizzy Ghosties states consistent with one seat's view, for the hard bot's search.

LG-2 hides the same from every seat: the cards below each top (of the Lizzies, the Burn Lizzy and a
loaned Lizzy), every ghost pile and the side stack. The view shows every top and every size, the
pending decision and the last draw. The sampler deals the hidden cards anew from the cards not
showing, each below-top card of its stack's part, and puts the last card drawn from the side stack
at its bottom (LG-5: a drawn card goes there, and nothing moves the side stack but draws).

Things no view can reproduce: the generator's seed (a fresh one), whether a card moved in the
current cycle and how many quiet cycles passed (LG-10; the sample says a card moved, none quiet),
and in the showdown whose turn the other team's next one is (the sample starts it at its first
member). A Lizzy's pass-around during an event resumes after the victim the event started from.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.dizzy_cards import DECK, PARTS, part_of

State = dict[str, Any]
View = dict[str, Any]

STEP_KINDS = {
    "pass": "lizzy",
    "event": "lizzy",
    "ghost_turn": "ghost",
    "showdown_ghosts": "ghost",
    "ghost_event": "ghost",
    "showdown_lizzies": "showdown_lizzies",
}


def _stack_views(view: View) -> list[dict[str, dict[str, Any]]]:
    stacks = [seat["stacks"] for seat in view["seats"] if seat["stacks"] is not None]
    stacks.append(view["burn"]["stacks"])
    if view["loaned"] is not None:
        stacks.append(view["loaned"]["stacks"])
    return stacks


def hidden_pool(view: View) -> tuple[list[str], str | None]:
    """(the cards showing nowhere, the side stack's known bottom card or None), in deck order."""
    pool = Counter(DECK)
    for stacks in _stack_views(view):
        for part in PARTS:
            top = stacks[part]["top"]
            if top is not None:
                pool[top] -= 1
    bottom = None
    draw = view["last_draw"]
    if draw is not None and draw.get("card") is not None and view["side_stack_size"]:
        bottom = draw["card"]
        pool[bottom] -= 1
    return sorted((+pool).elements(), key=DECK.index), bottom


def _deal_stacks(stacks: dict[str, dict[str, Any]], by_part: dict[str, list[str]]) -> dict[str, list[str]]:
    dealt = {}
    for part in PARTS:
        size, top = stacks[part]["size"], stacks[part]["top"]
        below = [by_part[part].pop() for _ in range(max(0, size - 1))]
        dealt[part] = below + ([top] if size else [])
    return dealt


def _step(view: View) -> dict[str, Any]:
    pending = view["pending"]
    event = None if pending["event"] is None else {**pending["event"], "targets": list(pending["event"]["targets"])}
    kind = STEP_KINDS[pending["kind"]]
    opponent = pending["opponent"]
    if pending["kind"] == "event":
        # LG-5: the event began after the victim of the pass-around steal, which then goes on.
        opponent = (event["start"] - 1) % view["players"]
    return {"seat": pending["seat"], "kind": kind, "opponent": opponent, "event": event}


def _showdown(view: View) -> dict[str, Any] | None:
    shown = view["showdown"]
    if shown is None:
        return None
    team = shown["team"]
    members = list(view["teams"][team])
    current = view["pending"]["seat"]
    other = "ghosts" if team == "lizzies" else "lizzies"
    return {
        "lizzies": list(view["teams"]["lizzies"]),
        "ghosts": list(view["teams"]["ghosts"]),
        "team": team,
        "team_turns": shown["team_turns"],
        "next": {team: members.index(current) + 1, other: 0},
        "extra_turn": shown["extra_turn"],
    }


def sample_state(view: View, rng: random.Random) -> State:
    """A full state that every seat's view (this one's included) shows as `view` shows it."""
    players = view["players"]
    pool, bottom = hidden_pool(view)
    rng.shuffle(pool)
    by_part: dict[str, list[str]] = {part: [c for c in pool if part_of(c) == part] for part in PARTS}
    lizzies: list[dict[str, list[str]] | None] = []
    for seat in view["seats"]:
        lizzies.append(None if seat["stacks"] is None else _deal_stacks(seat["stacks"], by_part))
    burn = _deal_stacks(view["burn"]["stacks"], by_part)
    loaned = None if view["loaned"] is None else _deal_stacks(view["loaned"]["stacks"], by_part)
    rest = [card for part in PARTS for card in by_part[part]]
    rng.shuffle(rest)
    piles = []
    for seat in view["seats"]:
        size = seat["pile_size"]
        piles.append(rest[:size])
        rest = rest[size:]
    side = rest + ([bottom] if bottom is not None else [])
    step = _step(view)
    showdown = _showdown(view)
    turns_taken = (view["cycle"] - 1) * players
    if showdown is None:
        turns_taken += (step["seat"] - view["first_player"]) % players  # turns go clockwise from the first
    return {
        "players": players,
        "dicey": view["dicey"],
        "rng": {"seed": str(rng.getrandbits(64)), "draws": 0},
        "lizzies": lizzies,
        "piles": piles,
        "burn": burn,
        "side": side,
        "loaned": loaned,
        "first": view["first_player"],
        "phase": view["phase"],
        "turns_taken": turns_taken,
        "cycle_moved": True,
        "quiet_cycles": 0,
        "step": step,
        "showdown": showdown,
        "last_draw": None if view["last_draw"] is None else dict(view["last_draw"]),
        "result": None,
    }
