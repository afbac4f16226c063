"""Tournaments: a Swiss of 1,000 entrants pairs each of its 7 rounds in under 1 s.

    python bench/bench_tournament_swiss.py [--entrants N] [--rounds R] [--seed S]

Results are random (win, draw or loss); ratings random. Each round is paired from the standings by
tournaments.pairing.swiss_round; the time is the pairing's own (time.perf_counter around the call).
Also checked: no rematch, at most one bye each. Missing the time target is reported, not an error.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import SwissPlayer, swiss_round  # noqa: E402

LIMIT_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = {p: SwissPlayer(p, rating=rng.randint(1000, 2200)) for p in range(args.entrants)}
    rematches, byes, worst = 0, [], 0.0
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        round_ = swiss_round(list(players.values()))
        took = time.perf_counter() - started
        worst = max(worst, took)
        print(f"round {number}: {len(round_.tables)} pairs paired in {took:.3f} s", flush=True)
        for a, b in round_.tables:
            rematches += b in players[a].opponents
            won = rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
            for me, other, points, first in ((a, b, won, True), (b, a, 1 - won, False)):
                p = players[me]
                players[me] = SwissPlayer(
                    me, float(p.score + points), p.rating, p.opponents | {other},
                    p.firsts + first, p.seconds + (not first), p.had_bye,
                )  # fmt: skip
        if round_.bye is not None:
            byes.append(round_.bye)
            p = players[round_.bye]
            players[round_.bye] = SwissPlayer(p.id, p.score + 1, p.rating, p.opponents, p.firsts, p.seconds, True)
    print(f"worst round {worst:.3f} s (target under {LIMIT_S:.0f} s); rematches {rematches}; byes {len(byes)}")
    if rematches or len(set(byes)) != len(byes):
        print("failed: a rematch or a second bye")
        sys.exit(1)
    if worst >= LIMIT_S:
        print(f"missed: a round took {worst:.2f} s")


if __name__ == "__main__":
    main()
