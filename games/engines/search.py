"""Search helpers shared by the "hard" bots: a move deadline and flat information-set Monte Carlo.

A hard bot never sees the state. For hidden-information games it asks its game's sampler for full
states consistent with its view (determinizations), scores every candidate move on each of them
and keeps the move with the best average: Perfect Information Monte Carlo, with the candidates
scored on the same sample each round so that their averages differ by the move, not by the luck
of the sample. Plain Python, no Django, nothing from games/ (each bot passes its engine's parts in).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

# The default time a hard bot may think about one move (1 s median, 3 s worst, one core).
DEFAULT_BUDGET_S = 1.0
# The clock budgets are measured on: wall time for the site (the worker's player waits on it); the
# ladder switches to the process's CPU time so that a loaded machine does not weaken the bots.
CLOCK = time.perf_counter
# The share of a move's budget the search may use: the rest is the worker's own work around the bot
# (reading the match, the view and legal moves, saving the move). Measured by
# bench/bench_worker_bots.py: with the whole budget searched, a 1 s move took 1.03-1.18 s in the task.
SEARCH_SHARE = 0.9


class Deadline:
    """A wall-clock budget for one move (the worker waits on wall time, not CPU time), of which the
    search takes SEARCH_SHARE."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = max(0.0, budget_s) * SEARCH_SHARE
        self.start = CLOCK()

    def elapsed(self) -> float:
        return CLOCK() - self.start

    def expired(self) -> bool:
        return self.elapsed() >= self.budget_s

    def left(self) -> float:
        return self.budget_s - self.elapsed()


def flat_pimc(
    candidates: Sequence[Any],
    sample: Callable[[random.Random], Any],
    score: Callable[[Any, Any, random.Random], float],
    rng: random.Random,
    budget_s: float,
    min_rounds: int = 1,
    max_rounds: int = 10_000,
    margin_z: float = 0.0,
) -> tuple[Any, list[float], int]:
    """(chosen candidate, mean score per candidate, rounds): each round draws one determinization
    and scores every candidate on it (with a shared seed, so rollouts differ by the move only).

    At least `min_rounds` rounds are played whatever the budget, so a tiny budget still decides
    from evidence. The first candidate is the caller's favourite (a heuristic's choice): another
    replaces it only when its mean beats the favourite's by `margin_z` standard errors of their
    paired differences, so that a few noisy rollouts do not overrule a sound heuristic."""
    deadline = Deadline(budget_s)
    count = len(candidates)
    totals = [0.0] * count
    squares = [0.0] * count  # sums of squared differences to the favourite, per candidate
    rounds = 0
    while rounds < max_rounds and (rounds < min_rounds or not deadline.expired()):
        world = sample(rng)
        seed = rng.getrandbits(64)
        scores = [score(world, candidate, random.Random(seed)) for candidate in candidates]
        for index, value in enumerate(scores):
            totals[index] += value
            squares[index] += (value - scores[0]) ** 2
        rounds += 1
    means = [total / max(1, rounds) for total in totals]
    best = 0
    for index in range(1, count):
        diff = means[index] - means[0]
        variance = max(0.0, squares[index] / max(1, rounds) - diff * diff)
        stderr = (variance / max(1, rounds - 1)) ** 0.5
        if diff > margin_z * stderr and means[index] > means[best]:
            best = index
    return candidates[best], means, rounds
