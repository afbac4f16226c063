"""Stage 1: games, real states reached by legal moves (pure engine code, runs in a process pool).

Each game is kept after one move or at its heaviest state in its game's last third (the largest
engine view plus legal moves for the player to act, see heaviest())."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from bench.web.config import HEAVIEST_SAMPLE, LATE_MARGIN, MOVE_GAME, NEW_CHAIN, PLAYERS


@dataclass
class Game:
    slug: str
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, dict[str, Any], list[dict[str, Any]]]]  # (seat, move, log entries)
    state: dict[str, Any]  # the state after `history`
    before_last: dict[str, Any]  # the state before the last move of `history`
    chain: list[tuple[int, dict[str, Any]]]  # the next legal moves from `state`, in order

    @property
    def players(self) -> int:
        return PLAYERS[self.slug]


Chooser = Callable[[dict[str, Any], int, list[dict[str, Any]], random.Random], dict[str, Any]]


def patient_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Solitaire Chess, long games: the card that skips fewest ranks, captures last.

    Random play ends Solitaire Chess in ~35-65 moves; this gives ~105-130 (max_moves is 145)."""
    from games.engines.solitaire_chess import rules

    def key(move: dict[str, Any]) -> tuple[int, int, float]:
        if move["type"] != "move":
            return (1, 0, rng.random())
        if move["to"] in state["pieces"]:
            return (2, 0, rng.random())
        card = state["cards"][move["to"]]
        skip = rules.rank_of(card) - rules.top_rank(state["stacks"][seat][rules.suit_of(card)])
        return (0, skip, rng.random())

    try:
        return min(legal, key=key)
    except (KeyError, TypeError, AttributeError, IndexError):
        # The engine's state changed shape: any legal move still makes a real game, a shorter one.
        return rng.choice(legal)


def planting_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Doubting Flower Field: plant two flowers whenever possible, never challenge: the field fills up
    (49 flowers at the end, ~28 moves), where random play ends in ~30 moves with half of it empty."""
    order = {"plant": 0, "accept": 1, "pass": 1, "challenge": 3}

    def key(move: dict[str, Any]) -> tuple[int, int, float]:
        return (order.get(move["type"], 2), -len(move.get("flowers", ())), rng.random())

    return min(legal, key=key)


def random_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(legal)


CHOOSERS: dict[str, Chooser] = {"solitaire-chess": patient_move, "doubting-flower-field": planting_move}


def play(slug: str, seed: int, limit: int) -> tuple[list[dict[str, Any]], list[tuple[int, dict, list]]]:
    """Up to `limit` moves of one game: the states (first one the initial) and the (seat, move, log) records."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)
    players = PLAYERS[slug]
    choose = CHOOSERS.get(slug, random_move)
    rng = random.Random(seed)
    states = [engine.new_state(players, engine.parse_options({}, players), seed)]
    records: list[tuple[int, dict, list]] = []
    while len(records) < limit:
        to_act = engine.to_act(states[-1])
        if not to_act:
            break
        seat = to_act[0]
        move = choose(states[-1], seat, engine.legal_moves(states[-1], seat), rng)
        state, entries = engine.apply(states[-1], seat, move)
        records.append((seat, move, entries))
        states.append(state)
    return states, records


def heaviest(slug: str, states: list[dict[str, Any]], first: int, last: int) -> int:
    """The index in [first, last] whose state gives the player to act the most to draw: the size of
    their engine view plus their legal moves, as JSON (a proxy for the board page's work)."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)

    def weight(index: int) -> int:
        state = states[index]
        seat = engine.to_act(state)[0]
        return len(json.dumps(engine.view(state, seat))) + len(json.dumps(engine.legal_moves(state, seat)))

    step = max(1, (last - first) // HEAVIEST_SAMPLE)  # a Duo Battle's last third is hundreds of states
    return max(range(last, first - 1, -step), key=weight)


def make_game(slug: str, seed: int, late: bool) -> Game:
    """A game kept after 1 move (late=False) or at its heaviest state in the last third of the game."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)
    # Just started: one move, and the chain of moves for the move benchmark (its game only).
    states, records = play(slug, seed, 10_000 if late else 2 + (NEW_CHAIN if slug == MOVE_GAME else 0))
    ended = not engine.to_act(states[-1])
    last_active = len(records) - (LATE_MARGIN if ended else 0)  # keep states[keep] active
    keep = heaviest(slug, states, max(1, 2 * last_active // 3), max(1, last_active)) if late else 1
    # The chain never plays the game's last move, so every match stays active.
    chain_end = len(records) - 1 if ended else len(records)
    chain = [(seat, move) for seat, move, _ in records[keep:chain_end]]
    options = engine.parse_options({}, PLAYERS[slug])
    return Game(slug, seed, options, records[:keep], states[keep], states[keep - 1], chain)


def make_games(count: int, seed: int) -> tuple[list[Game], list[Game], Game]:
    """`count` games (a quarter per game; in each game, every other one late), a late probe per game
    for the query count at move 200, and a just-started Solitaire Chess to move in-process."""
    rng = random.Random(seed)
    slugs = list(PLAYERS)
    jobs = [(slugs[i % len(slugs)], rng.getrandbits(128), (i // len(slugs)) % 2 == 1) for i in range(count)]
    jobs += [(slug, rng.getrandbits(128), True) for slug in slugs]
    jobs.append((MOVE_GAME, rng.getrandbits(128), False))
    with Pool(min(2, os.cpu_count() or 1)) as pool:
        games = pool.starmap(make_game, jobs, chunksize=4)
    return games[:count], games[count:-1], games[-1]
