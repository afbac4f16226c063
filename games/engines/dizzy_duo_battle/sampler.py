"""Full Dizzy Duo Battle states consistent with one seat's view, for the hard bot's search.

What a seat knows of the round (ALL-3, DD-6): its own hand, every card on the open pile, every card
taken from the open pile (and so still held unless discarded again), hand sizes and the blind
pile's size. The sampler deals the rest, the other hands and the blind pile, at random from the
cards the seat has not seen, keeping the known held cards in their holders' hands. Earlier rounds
are reshuffled away (DD-8) and leave only their battle summaries, which the sample copies.

Things no view can reproduce: the generator's seed (a fresh one), the order of the blind pile,
which unseen card another seat drew blind (any of its hand's), older battles' attack cards, fights
and duos (only their summaries are public; the last battle is copied as the seat saw it).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines import dizzy_cards as cards

State = dict[str, Any]
View = dict[str, Any]

# With `skill`, each turn a seat has had this round lets its hand be the best of this many more
# random fillings (a seat that has chosen its cards for a few turns holds a strong hand).
TRIES_PER_TURN = 10


def known_held(view: View) -> dict[int, Counter[str]]:
    """Cards other seats took from the open pile this round and have not discarded since."""
    me = view["seat"]
    known: dict[int, Counter[str]] = {}
    for entry in view["history"]:
        seat = entry["seat"]
        if seat == me:
            continue
        held = known.setdefault(seat, Counter())
        if entry["took"] is not None:
            held[entry["took"]] += 1
        if held[entry["discarded"]] > 0:
            held[entry["discarded"]] -= 1
    return {seat: +held for seat, held in known.items()}


def unseen(view: View, known: dict[int, Counter[str]]) -> list[str]:
    """The cards the seat has not seen this round, in a fixed order (the deck's)."""
    pool = Counter(cards.DECK)
    pool.subtract(view["hand"] or [])
    pool.subtract(view["open_pile"])
    for held in known.values():
        pool.subtract(held)
    return sorted((+pool).elements(), key=cards.DECK.index)


def _battle_from_log(entry: dict[str, Any], players: int) -> dict[str, Any]:
    """An older battle as far as its public summary goes (the view shows nothing more of it)."""
    return {
        "round": entry["round"],
        "attacker": entry["attacker"],
        "attack_card": None,
        "attack_kind": None,
        "defenders": [],
        "duos": [None] * players,
        "powers": list(entry["powers"]),
        "fights": [],
        "changes": list(entry["changes"]),
        "fallen": [],
        "lifelines": [],
        "lives_after": list(entry["lives_after"]),
    }


def _last_battle(view: View) -> dict[str, Any]:
    shown = dict(view["last_battle"])
    duos = []
    for arrangement in shown["duos"]:
        duos.append(None if arrangement is None else [list(lizzy["cards"]) for lizzy in arrangement["lizzies"]])
    shown["duos"] = duos
    shown.pop("duos_shown", None)
    return shown


def _deal_hand(view: View, seat: int, known: dict, pool: list[str], rng: random.Random, skill: int) -> list[str]:
    """Another seat's hand: the cards it is known to hold, the rest from `pool` (which loses them)."""
    held = list(known.get(seat, Counter()).elements())
    missing = view["hand_sizes"][seat] - len(held)
    tries = 1 + min(skill, TRIES_PER_TURN * view["turns"][seat])
    best: list[str] = []
    best_power = -1
    for _ in range(tries if missing > 0 else 1):
        filling = rng.sample(pool, missing)
        power = cards.hand_power(held + filling) if tries > 1 else 0
        if power > best_power:
            best, best_power = filling, power
    for card in best:
        pool.remove(card)
    return cards.sort_cards(held + best)


def sample_state(view: View, rng: random.Random, skill: int = 0) -> State:
    """A full state that `view`'s seat cannot tell from the real one (see the module docstring).

    With `skill` > 0 each other hand is the strongest of 1 + min(skill, 10 x its turns this round)
    random fillings: players keep good cards, so after a few turns their hands are better than a
    random deal (any filling is consistent with the view; this only weighs the likely ones). Best
    of 31 matched the powers `normal` bots really held at their third turn (4.8 on average, where
    a random filling has 1.6 and the best of 4 has 3.0), so the hard bot passes 30."""
    players = view["players"]
    me = view["seat"]
    known = known_held(view)
    pool = unseen(view, known)
    rng.shuffle(pool)
    hands = [
        list(view["hand"]) if seat == me else _deal_hand(view, seat, known, pool, rng, skill) for seat in range(players)
    ]
    history = []
    for entry in view["history"]:
        took = entry["took"]
        if took is None:  # another seat's blind draw: any card of its hand will do
            took = rng.choice(hands[entry["seat"]] or list(cards.DECK))
        history.append({"seat": entry["seat"], "from": entry["from"], "took": took, "discarded": entry["discarded"]})
    battles = [_battle_from_log(entry, players) for entry in view["battle_log"]]
    if battles and view["last_battle"] is not None:
        battles[-1] = _last_battle(view)
    taken = None
    if view["current_take"] is not None:
        card = view["current_take"]["card"]
        if card is None:
            card = rng.choice(hands[view["current"]])
        taken = {"card": card, "from": view["current_take"]["from"]}
    return {
        "players": players,
        "options": dict(view["options"]),
        "rng": {"seed": str(rng.getrandbits(64)), "draws": 0},
        "scoring": view["scoring"],
        "start_lives": view["start_lives"],
        "lives": list(view["lives"]),
        "out": list(view["out"]),
        "lifeline_used": list(view["lifeline_used"]),
        "round": view["round"],
        "round_starter": view["round_starter"],
        "current": view["current"],
        "phase": view["phase"],
        "hands": hands,
        "blind": pool,
        "open": list(view["open_pile"]),
        "turns": list(view["turns"]),
        "taken": taken,
        "history": history,
        "battles": battles,
        "result": None,
    }
