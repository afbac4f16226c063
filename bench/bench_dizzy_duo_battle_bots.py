"""Dizzy Duo Battle bots: win rates and time per move.

    python bench/bench_dizzy_duo_battle_bots.py [--games N] [--seed S]

Two line-ups: four players (one "normal", three "random"; the normal bot's seat rotates) and
head to head (normal against random, seats alternating). Targets: the normal bot wins at least 60%
of four-player matches and 90% head to head. Draws count as not won.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.dizzy_duo_battle import ENGINE, SPEC  # noqa: E402


def play(levels: list[str], seed: int, options: dict | None = None, timing: dict | None = None) -> list[int]:
    """One match with the given bot level per seat; returns the winners' seats."""
    state = ENGINE.new_state(len(levels), ENGINE.parse_options(options or {}, len(levels)), seed)
    generators = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    while True:
        seats = ENGINE.to_act(state)
        if not seats:
            break
        seat = seats[0]
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_moves(state, seat)
        bot = SPEC.bots[levels[seat]]
        started = time.perf_counter()
        move = bot(view, legal, generators[seat])
        if timing is not None:
            timing[levels[seat]].append(time.perf_counter() - started)
        state, _ = ENGINE.apply(state, seat, move)
    result = ENGINE.result(state)
    assert result is not None
    return result.winners


def win_rate(players: int, games: int, seed: int, timing: dict) -> float:
    won = 0
    for game in range(games):
        normal_seat = game % players
        levels = ["normal" if seat == normal_seat else "random" for seat in range(players)]
        winners = play(levels, seed + game, timing=timing)
        won += winners == [normal_seat]
    return won / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="matches per line-up")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timing: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    four = win_rate(4, args.games, args.seed, timing)
    print(f"4 players, normal vs 3 random: normal wins {four:.0%} of {args.games} (target 60%)")
    two = win_rate(2, args.games, args.seed + 100_000, timing)
    print(f"head to head, normal vs random: normal wins {two:.0%} of {args.games} (target 90%)")
    for level, times in sorted(timing.items()):
        times.sort()
        mean = sum(times) / len(times) * 1000
        worst = times[-1] * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        spread = f"99%: {p99:.1f} ms, worst {worst:.1f} ms"
        print(f"{level:>6}: {len(times)} moves, {mean:.2f} ms per move ({spread})")
    print(f"took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
