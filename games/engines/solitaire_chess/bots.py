"""Solitaire Chess bots. A bot sees only its view and its legal moves (never the state).

The "normal" bot is greedy: it scores each legal move by looking one move ahead on the view's board.
Cards are never used up (a landing takes a copy), so a player's score is how long a rising run of
each suit they can collect before they run out of moves. Hence the bot
- takes the card that skips the fewest ranks of its suit (each skipped rank is a card lost for good),
- keeps its pieces out of the enemy's reach, and captures enemy pieces, above all threatening ones,
- keeps options open (more reachable cards after the move) and places spare pieces where many low
  cards are in reach.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import Move, View
from games.engines.solitaire_chess import rules

SKIP_COST = 2.0  # per rank of the suit jumped over
CARD_GAIN = 20.0
CAPTURE_GAIN = 14.0
BONUS_PIECE = 4.0
PIECE_AT_RISK = 16.0
OPTION_VALUE = 0.4  # per card the bot can reach after the move
PLACE_GAIN = 6.0
SWAP_COST = 10.0  # the removed piece is gone for good


def _skip(card: str, stacks: dict[str, list[str]]) -> int:
    return rules.rank_of(card) - rules.top_rank(stacks[rules.suit_of(card)]) - 1


def _options(cards: dict[str, str], pieces: dict[str, Any], stacks: dict[str, list[str]], seat: int) -> float:
    """How many cards the bot could take next, weighted towards those that skip little."""
    total = 0.0
    for square, piece in pieces.items():
        if piece["owner"] != seat:
            continue
        for target in rules.piece_destinations(cards, pieces, stacks, square):
            if target in pieces:
                continue
            total += 1.0 / (1 + _skip(cards[target], stacks))
    return total


def _reach_value(cards: dict[str, str], pieces: dict[str, Any], square: str) -> float:
    """For a setup placement: how many low cards a piece on this grey square could reach."""
    total = 0.0
    for ray in rules.RAYS[square]:
        for target in ray:
            if target in pieces:
                break
            if rules.KIND[target] == rules.PLAY:
                total += max(0, 8 - rules.rank_of(cards[target]))
    return total


def _score_play_move(view: View, move: Move, seat: int) -> float:
    cards: dict[str, str] = view["cards"]
    stacks = {suit: list(stack) for suit, stack in view["players"][seat]["stacks"].items()}
    pieces = {sq: {"owner": p["owner"], "just_entered": p["just_entered"]} for sq, p in view["pieces"].items()}
    score = 0.0
    if move["type"] == "place":
        pieces[move["to"]] = {"owner": seat, "just_entered": False}
        score += PLACE_GAIN
    else:
        if move["type"] == "swap":
            del pieces[move["remove"]]
            score -= SWAP_COST
        origin, target = move["from"], move["to"]
        victim = pieces.get(target)
        if victim is None:
            card = cards[target]
            score += CARD_GAIN - SKIP_COST * _skip(card, stacks)
            stacks[rules.suit_of(card)].append(card)
        else:
            score += CAPTURE_GAIN
            if view["ruleset"] == "death":
                if view["players"][seat]["capture_bonuses_left"] > 0:
                    score += BONUS_PIECE
            elif victim["just_entered"]:
                score -= BONUS_PIECE / 2  # its owner gets a piece back
        pieces[target] = pieces.pop(origin)
    at_risk = len(rules.attacked_squares(pieces, seat))
    if at_risk:
        score -= PIECE_AT_RISK + (at_risk - 1) * PIECE_AT_RISK / 4
    score += OPTION_VALUE * _options(cards, pieces, stacks, seat)
    return score


def normal_bot(view: View, legal: list[Move], rng: random.Random) -> Move:
    """Greedy one-move look-ahead (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "order":
        return {"type": "order", "first": True}  # first pick of the low cards
    seat = view["viewer"]
    if view["phase"] == "setup":
        scored = [(_reach_value(view["cards"], view["pieces"], m["to"]), rng.random(), m) for m in legal]
    else:
        scored = [(_score_play_move(view, m, seat), rng.random(), m) for m in legal]
    return max(scored, key=lambda item: (item[0], item[1]))[2]
