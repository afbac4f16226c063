"""Lizzy Ghosties bots: how often each bot ends on the winning team, and time per decision.

    python bench/bench_lizzy_ghosties_bots.py [--games N] [--players 4 6 8] [--dicey] [--seed S]

Line-up: one "normal" bot and random bots for the other seats; the normal bot's seat rotates so
that seat order does not bias the rate. Target (4 players): the normal bot is on the winning team
at least 1.5 times as often as the average random seat. Draws count as not won.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.lizzy_ghosties import ENGINE, SPEC  # noqa: E402

Timing = dict[str, list[float]]  # bot level -> seconds per decision


def play(levels: list[str], seed: int, dicey: bool, timing: Timing) -> list[int]:
    """One game with the given bot level per seat; returns the winning team's seats."""
    state = ENGINE.new_state(len(levels), {"dicey": dicey}, seed)
    generators = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    while True:
        seats = ENGINE.to_act(state)
        if not seats:
            break
        seat = seats[0]
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_moves(state, seat)
        started = time.perf_counter()
        move = SPEC.bots[levels[seat]](view, legal, generators[seat])
        timing[levels[seat]].append(time.perf_counter() - started)
        state, _ = ENGINE.apply(state, seat, move)
    result = ENGINE.result(state)
    assert result is not None
    return result.winners


def rates(players: int, games: int, seed: int, dicey: bool, timing: Timing) -> tuple[float, float]:
    """(normal seat's rate, average random seat's rate) of ending on the winning team."""
    normal_won = random_won = 0
    for game in range(games):
        normal_seat = game % players
        levels = ["normal" if seat == normal_seat else "random" for seat in range(players)]
        winners = play(levels, seed + game, dicey, timing)
        normal_won += normal_seat in winners
        random_won += sum(1 for seat in winners if seat != normal_seat)
    return normal_won / games, random_won / (games * (players - 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[4], help="table sizes, 3 to 8")
    parser.add_argument("--dicey", action="store_true", help="the Dicey variant (LG-11)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timing: Timing = defaultdict(list)
    started = time.perf_counter()
    for players in args.players:
        normal, average = rates(players, args.games, args.seed, args.dicey, timing)
        ratio = f"{normal / average:.2f}" if average else "n/a"
        target = " (target 1.5)" if players == 4 else ""
        print(
            f"{players} players, dicey={args.dicey}, {args.games} games: normal bot on the winning team "
            f"{normal:.1%}, average random seat {average:.1%}, ratio {ratio}{target}"
        )
    for level, times in sorted(timing.items()):
        times.sort()
        mean = sum(times) / len(times) * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        print(f"{level:>6}: {len(times)} decisions, {mean:.3f} ms per decision (99%: {p99:.2f} ms)")
    print(f"took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
