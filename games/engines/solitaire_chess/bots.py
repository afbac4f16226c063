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

import math
import random
from typing import Any

from games.engines.base import Bot, Move, View, random_bot
from games.engines.search import Deadline
from games.engines.solitaire_chess import rules
from games.engines.solitaire_chess.engine import ENGINE
from games.engines.solitaire_chess.sampler import state_from_view

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


# --- hard: alpha-beta over the whole state ----------------------------------------------------
# Everything in Solitaire Chess is public, so the view holds the whole state but the generator
# (which play never uses after the deal): the hard bot rebuilds the state and searches it with the
# engine itself, by iterative deepening within its time budget.

HARD_BUDGET_S = 1.0  # seconds per move; the ladder lowers it (1 s median, 3 s worst)
WIN = 1_000_000.0
CARD_VALUE = 100.0
RANK_LEFT_VALUE = 5.0  # per rank still above a suit's top: each skipped rank is a card lost for good
PIECE_VALUE = 100.0  # per piece on the board or in hand: a player with none is out
MOBILITY_VALUE = 2.0  # per reachable fitting card, weighted by how little it skips
MAX_DEPTH = 8


class _Timeout(Exception):
    """The budget ran out in the middle of a search depth."""


class _Cards:
    """Rank and suit per play square, looked up once per move decision (the cards never move)."""

    def __init__(self, cards: dict[str, str]) -> None:
        self.rank = {sq: rules.rank_of(card) for sq, card in cards.items()}
        self.suit = {sq: rules.suit_of(card) for sq, card in cards.items()}


def _mobility(info: _Cards, pieces: dict[str, Any], tops: dict[str, int], seat: int) -> float:
    """Reachable fitting cards for `seat`, each weighted by how few ranks it skips (as _options,
    several times faster: the search calls it at every leaf)."""
    total = 0.0
    rank, suit, kind, rays = info.rank, info.suit, rules.KIND, rules.RAYS
    for square, piece in pieces.items():
        if piece["owner"] != seat:
            continue
        for ray in rays[square]:
            for target in ray:
                if target in pieces:
                    break
                if kind[target] == rules.PLAY:
                    gap = rank[target] - tops[suit[target]]
                    if gap > 0:
                        total += 1.0 / gap
    return total


def _potential(info: _Cards, state: dict[str, Any], seat: int) -> float:
    """What a player may still collect: ranks left per suit, pieces, reachable cards."""
    if state["out"][seat]:
        return 0.0
    stacks = state["stacks"][seat]
    tops = {suit: rules.rank_of(stack[-1]) if stack else 0 for suit, stack in stacks.items()}
    ranks_left = sum(13 - top for top in tops.values())
    pieces = state["in_hand"][seat] + sum(1 for p in state["pieces"].values() if p["owner"] == seat)
    mobility = _mobility(info, state["pieces"], tops, seat)
    return RANK_LEFT_VALUE * ranks_left + PIECE_VALUE * pieces + MOBILITY_VALUE * mobility


def _evaluate(engine: Any, info: _Cards, state: dict[str, Any], me: int) -> float:
    outcome = engine.result(state)
    scores = [sum(len(s) for s in state["stacks"][seat].values()) for seat in (0, 1)]
    if outcome is not None:
        sign = 1.0 if me in outcome.winners else -1.0
        return sign * WIN + CARD_VALUE * (scores[me] - scores[1 - me])
    value = CARD_VALUE * (scores[me] - scores[1 - me])
    return value + _potential(info, state, me) - _potential(info, state, 1 - me)


def _ordered(state: dict[str, Any], moves: list[Move], seat: int) -> list[Move]:
    """Captures first, then cards that skip little, then swaps and placements: good moves early
    make alpha-beta cut the rest."""
    stacks = state["stacks"][seat]

    def key(move: Move) -> float:
        if move["type"] == "place":
            return 50.0
        target = move["to"]
        if target in state["pieces"]:
            return -10.0
        skip = _skip(state["cards"][target], stacks)
        return skip + (20.0 if move["type"] == "swap" else 0.0)

    return sorted(moves, key=key)


def _search(
    engine: Any, info: _Cards, state: dict[str, Any], depth: int, alpha: float, beta: float, me: int, deadline: Any
) -> float:
    if deadline.expired():
        raise _Timeout
    turn = state["turn"]
    if depth == 0 or turn is None:
        return _evaluate(engine, info, state, me)
    moves = _ordered(state, engine.legal_moves(state, turn), turn)
    maximizing = turn == me
    best = -math.inf if maximizing else math.inf
    for move in moves:
        child, _ = engine.apply(state, turn, move)
        value = _search(engine, info, child, depth - 1, alpha, beta, me, deadline)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def hard_bot(view: View, legal: list[Move], rng: random.Random, budget_s: float | None = None) -> Move:
    """Iterative-deepening alpha-beta on the rebuilt state; the greedy bot picks the order and the
    setup squares (the search cannot see that far)."""
    if len(legal) == 1 or view["phase"] != "play":
        return normal_bot(view, legal, rng)
    engine = ENGINE
    deadline = Deadline(HARD_BUDGET_S if budget_s is None else budget_s)
    state = state_from_view(view)
    info = _Cards(state["cards"])
    me = view["viewer"]
    moves = _ordered(state, list(legal), me)
    children = [engine.apply(state, me, move)[0] for move in moves]
    best_move = moves[0]
    depth = 0
    while depth < MAX_DEPTH:
        depth += 1
        try:
            scored = []
            alpha = -math.inf
            for move, child in zip(moves, children):
                value = _search(engine, info, child, depth - 1, alpha, math.inf, me, deadline)
                scored.append((value, move))
                alpha = max(alpha, value)
        except _Timeout:
            break
        scored.sort(key=lambda item: -item[0])
        best_move = scored[0][1]
        moves = [move for _, move in scored]  # the next depth looks at the best first
        children = [engine.apply(state, me, move)[0] for move in moves]
        if abs(scored[0][0]) >= WIN / 2:
            break  # a forced result: deeper search cannot change it
    return best_move


# The game's bots by level, named by its spec (games/engines/solitaire_chess/__init__.py).
BOTS: dict[str, Bot] = {"random": random_bot, "normal": normal_bot, "hard": hard_bot}
