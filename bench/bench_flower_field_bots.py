"""Doubting Flower Field bots: win rates against each other and time per move.

    python bench/bench_flower_field_bots.py [--games N] [--seed S]

Line-ups (seats alternate, so each bot goes first in half the matches): hard vs random, normal vs
random, hard vs normal, and random vs random as a check of the seats' balance. Targets: the strongest
bot ("hard") wins at least 95% against random and more than half against normal; every bot move takes
under 500 ms on one core. Time per move is the bot's own CPU time (time.process_time), so other work
on the machine does not count; the engine's legal_moves is measured apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.flower_field import ENGINE, SPEC  # noqa: E402

LINE_UPS = [("hard", "random"), ("normal", "random"), ("hard", "normal"), ("random", "random")]
TARGETS = {("hard", "random"): 0.95, ("hard", "normal"): 0.5}
LIMIT_MS = 500


def play(levels: tuple[str, str], seed: int, timing: dict[str, list[float]]) -> int:
    """One match; returns the winner's seat."""
    state = ENGINE.new_state(2, ENGINE.parse_options({}, 2), seed)
    generators = [random.Random(f"{seed}:{seat}") for seat in range(2)]
    while True:
        seats = ENGINE.to_act(state)
        if not seats:
            break
        seat = seats[0]
        view = ENGINE.view(state, seat)
        started = time.process_time()
        legal = ENGINE.legal_moves(state, seat)
        timing["legal_moves"].append(time.process_time() - started)
        started = time.process_time()
        move = SPEC.bots[levels[seat]](view, legal, generators[seat])
        timing[levels[seat]].append(time.process_time() - started)
        state, _ = ENGINE.apply(state, seat, move)
    result = ENGINE.result(state)
    assert result is not None
    return result.winners[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="matches per line-up")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    timing: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    failed = []
    for number, (first, second) in enumerate(LINE_UPS):
        won = 0
        for game in range(args.games):
            seed = args.seed + 100_000 * number + game
            if game % 2 == 0:
                won += play((first, second), seed, timing) == 0
            else:
                won += play((second, first), seed, timing) == 1
        rate = won / args.games
        target = TARGETS.get((first, second))
        note = f" (target {target:.0%})" if target is not None else ""
        print(f"{first} vs {second}: {first} wins {rate:.0%} of {args.games}{note}", flush=True)
        if target is not None and not rate >= target + (1e-9 if target == 0.5 else 0):
            failed.append(f"{first} vs {second}")
    for level, times in sorted(timing.items()):
        times.sort()
        mean = sum(times) / len(times) * 1000
        worst = times[-1] * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        print(f"{level:>11}: {len(times)} moves, {mean:.1f} ms per move (99%: {p99:.1f} ms, worst {worst:.1f} ms)")
        if level != "legal_moves" and worst > LIMIT_MS:
            failed.append(f"{level} took {worst:.0f} ms on a move")
    print(f"took {time.perf_counter() - started:.0f} s")
    if failed:
        print("missed: " + "; ".join(failed))


if __name__ == "__main__":
    main()
