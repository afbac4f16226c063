"""Bots for Dizzy Duo Battle. A bot sees only its seat's view and its legal moves (base.Bot).

The "normal" bot:
- keeps track of the cards it has not seen: the deck less its hand, the open pile, and the cards
  other players took from the open pile this round and still hold;
- values a hand by its power plus its potential: how much one more card from the unseen ones is
  expected to add (taking the best discard after it);
- takes the open card when that beats the expected value of a blind card, discards the card whose
  loss hurts that value least;
- attacks when sampled opponent hands (their known cards plus unseen ones) say it wins most fights,
  asking less as the round goes on, since the 10th turn forces an attack anyway.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.dizzy_cards import DECK, hand_power, part_of

# How much a hand's potential (its expected gain from one more card) counts besides its power.
POTENTIAL_WEIGHT = 0.7
# Opponent hands sampled per opponent for an attack decision.
SAMPLES = 40
# Attack when the average chance to win a fight reaches this, lowered by STEP per turn after the
# third (a forced attack comes at the 10th turn anyway), and the expected life change is not a loss.
ATTACK_CHANCE = 0.8
ATTACK_CHANCE_STEP = 0.04
ATTACK_CHANCE_FLOOR = 0.5


def _without(cards: list[str], card: str) -> list[str]:
    rest = list(cards)
    rest.remove(card)
    return rest


def known_cards(view: dict[str, Any]) -> dict[int, Counter[str]]:
    """Cards other players are known to hold: taken from the open pile this round, not discarded."""
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
    return known


def unseen_cards(view: dict[str, Any], known: dict[int, Counter[str]]) -> Counter[str]:
    """Cards this seat has not seen this round: in the blind pile or unknown in other hands."""
    pool = Counter(DECK)
    pool.subtract(view["hand"])
    pool.subtract(view["open_pile"])
    for held in known.values():
        pool.subtract(held)
    return +pool  # drop zero (and, defensively, negative) counts


def potential(hand: list[str], pool: Counter[str]) -> float:
    """Expected power gain of a 6-card hand from one more unseen card and the best discard after.

    Only discards that keep the parts balanced are tried (a card of the drawn card's part, or of
    the part the hand has most of): the others can only break a Lizzy."""
    base = hand_power(hand)
    total_weight = sum(pool.values())
    if not total_weight:
        return 0.0
    parts = Counter(part_of(c) for c in hand)
    gain = 0.0
    for card, weight in pool.items():
        part = part_of(card)
        parts[part] += 1
        most = max(parts.values())
        seven = hand + [card]
        best = base  # discarding the drawn card gives the hand back
        for discard in set(hand):
            discard_part = part_of(discard)
            if discard_part == part or parts[discard_part] == most:
                best = max(best, hand_power(_without(seven, discard)))
        parts[part] -= 1
        gain += weight * (best - base)
    return gain / total_weight


def hand_value(hand: list[str], pool: Counter[str]) -> float:
    return hand_power(hand) + POTENTIAL_WEIGHT * potential(hand, pool)


def best_discard(seven: list[str], pool: Counter[str]) -> tuple[str, float]:
    """The card to discard from seven and the value of the six kept."""
    choices = []
    for card in sorted(set(seven)):
        choices.append((hand_value(_without(seven, card), pool), card))
    value, card = max(choices, key=lambda pair: pair[0])
    return card, value


def attack_outlook(
    view: dict[str, Any], power: int, known: dict[int, Counter[str]], pool: Counter[str], rng: random.Random
) -> tuple[float, float]:
    """(average chance to win a fight, expected change of own lives) attacking with `power` now."""
    me = view["seat"]
    pool_list = sorted(pool.elements())
    chances = []
    change = 0.0
    for seat in range(view["players"]):
        if seat == me or view["out"][seat]:
            continue
        held = list(known.get(seat, Counter()).elements())
        missing = max(0, view["hand_sizes"][seat] - len(held))
        wins = 0
        for _ in range(SAMPLES):
            other = held + rng.sample(pool_list, min(missing, len(pool_list)))
            theirs = hand_power(other)
            if power > theirs:
                wins += 1
                change += theirs / SAMPLES
            elif theirs > power:
                change -= theirs / SAMPLES
        chances.append(wins / SAMPLES)
    return (sum(chances) / len(chances) if chances else 1.0), change


def wants_attack(
    view: dict[str, Any], power: int, known: dict[int, Counter[str]], pool: Counter[str], rng: random.Random
) -> bool:
    chance, change = attack_outlook(view, power, known, pool, rng)
    my_turns = view["turns"][view["seat"]]
    needed = max(ATTACK_CHANCE_FLOOR, ATTACK_CHANCE - ATTACK_CHANCE_STEP * max(0, my_turns - 3))
    return chance >= needed and change >= 0


def normal_bot(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    hand: list[str] = view["hand"]
    known = known_cards(view)
    pool = unseen_cards(view, known)
    attacks = [m for m in legal if m["type"] == "attack"]
    if view["phase"] == "take":
        if attacks and wants_attack(view, hand_power(hand), known, pool, rng):
            return attacks[0]
        open_card = view["open_top"]
        base = hand_power(hand)
        blind_value = base + (1 + POTENTIAL_WEIGHT) * potential(hand, pool)
        take_open = {"type": "take", "from": "open"}
        if open_card is not None and take_open in legal:
            _, open_value = best_discard(hand + [open_card], pool)
            if open_value > blind_value:
                return take_open
        return {"type": "take", "from": "blind"}
    # The discard decision; with the main-attack rule, attack moves discard a head card.
    discards = [m for m in legal if m["type"] == "discard"]
    if attacks:
        best_attack = max(attacks, key=lambda m: hand_power(_without(hand, m["card"])))
        if not discards:  # a forced attack
            return best_attack
        if wants_attack(view, hand_power(_without(hand, best_attack["card"])), known, pool, rng):
            return best_attack
    card, _ = best_discard(hand, pool)
    return {"type": "discard", "card": card}
