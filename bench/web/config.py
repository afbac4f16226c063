"""What every stage of the web benchmark shares: the games and their table sizes, the bench database
and cache, the sample sizes, the targets ("Fast") and the run's options."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Each game with the table size of its heaviest board page.
PLAYERS = {"solitaire-chess": 2, "doubting-flower-field": 2, "lizzy-ghosties": 8, "dizzy-duo-battle": 6}
MOVE_GAME = "solitaire-chess"  # the move and idle poll benchmarks
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BENCH_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dizzybench")
# The cache as in production (Redis, shared by the web processes), when one answers; else the file cache.
REDIS_BENCH_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13")

LATE_MARGIN = 2  # a late match is at least this many moves before its game's end: still active
NEW_CHAIN = 30  # moves prepared per just-started match for the move benchmark
SYNTHETIC_HISTORY = 200  # Move rows of the query-count match "at move 200"
SIZE_SAMPLE = 5  # late matches per game whose compressed board page is measured
HEAVIEST_SAMPLE = 24  # states weighed per late game to find its heaviest

# Guards, not goals (the live events retired the "board page >= 50% of a bare view": its ceiling is
# 15-37% with every query free): the ratios must not fall below today's figures.
BOARD_TARGET = 0.15
POLL_TARGET = 0.50
MOVE_TARGET = 0.08
MAX_BOARD_QUERIES = 6
MAX_BOARD_KB = 30.0
ROUNDS = 3  # each endpoint is measured in this many turns, interleaved with the others


@dataclass
class Options:
    seconds: float = 10.0  # measured load per endpoint
    warmup: float = 2.0
    threads: int = 4  # client threads: twice the workers, so a worker never waits for the client
    workers: int = 2
    matches: int = 1000
    users: int = 100


def underscored(slug: str) -> str:
    return slug.replace("-", "_")
