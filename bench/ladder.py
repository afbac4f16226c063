"""The bot ladder (`make ladder`): a round robin per game between the bot levels and scripted
reference players (bench/ladder_players.py), seats rotated, over the machine's cores.

    python bench/ladder.py [--games N] [--budget S] [--jobs J] [--game SLUG ...] [--out FILE] [--short]

- 2-player line-ups: every pair of players plays N games (N/2 with each seat), Solitaire Chess
  alternating Death Match and Final Match; Dizzy Duo Battle is played 2-handed here too.
- Tables: one `hard` (or a scripted player, or `random`) among `normal` bots, its seat rotated:
  Dizzy Duo Battle with 3, 4 and 6 seats, Lizzy Ghosties with 4 and 5.
- Every finished game is printed as it ends and appended to --out (JSON lines); a run with the
  same --out skips the games already there (resumable). The tables at the end read the whole file.
- `--budget` sets the hard bots' seconds per move (the site's default is 1 s; a ladder on two
  cores uses less), measured in CPU time here (wall time on the site). Times per move are each
  bot call's own CPU time (time.process_time), so other work on the machine does not inflate
  them; the worst wall time is printed too.

Targets: 2-player games: hard >= 75% against normal, >= 70% against every scripted
player; Dizzy Duo Battle tables: hard wins >= 1.5x its fair share (1/seats); Lizzy Ghosties
tables: hard's win rate >= 1.2x the normal seats'. Intervals: 95% Wilson.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.ladder_players import SCRIPTED  # noqa: E402
from games.engines.registry import get_bots, get_engine  # noqa: E402

GAMES = ("solitaire-chess", "doubting-flower-field", "dizzy-duo-battle", "lizzy-ghosties")
TABLES = {"dizzy-duo-battle": (3, 4, 6), "lizzy-ghosties": (4, 5)}
TWO_PLAYER = ("solitaire-chess", "doubting-flower-field", "dizzy-duo-battle")
# The bots modules whose HARD_BUDGET_S the --budget option sets.
BOT_MODULES = {
    "solitaire-chess": "games.engines.solitaire_chess.bots",
    "doubting-flower-field": "games.engines.flower_field.bots",
    "dizzy-duo-battle": "games.engines.dizzy_duo_battle.bots",
    "lizzy-ghosties": "games.engines.lizzy_ghosties.bots",
}


def players_of(slug: str) -> dict[str, Any]:
    return {**get_bots(slug), **SCRIPTED.get(slug, {})}


def tasks_for(slug: str, games: int, seed: int) -> list[dict[str, Any]]:
    """Every game of the ladder for one game, as small JSON-able task dicts with a unique key."""
    tasks = []
    names = list(players_of(slug))
    if slug in TWO_PLAYER:
        for a, b in itertools.combinations(names, 2):
            for index in range(games):
                levels = [a, b] if index % 2 == 0 else [b, a]
                options = {}
                if slug == "solitaire-chess":
                    options = {"ruleset": "final" if (index // 2) % 2 == 0 else "death"}
                game_seed = seed * 1_000_003 + index
                key = f"{slug}|2|{a}-{b}|{index}"
                tasks.append(
                    {
                        "slug": slug,
                        "players": 2,
                        "levels": levels,
                        "options": options,
                        "seed": game_seed,
                        "key": key,
                        "pair": [a, b],
                    }
                )
    for seats in TABLES.get(slug, ()):
        for star in [n for n in names if n != "normal"]:
            for index in range(games):
                levels = ["normal"] * seats
                levels[index % seats] = star
                key = f"{slug}|{seats}|{star}|{index}"
                game_seed = seed * 1_000_003 + 500_000 + index
                tasks.append(
                    {
                        "slug": slug,
                        "players": seats,
                        "levels": levels,
                        "options": {},
                        "seed": game_seed,
                        "key": key,
                        "star": star,
                    }
                )
    return tasks


def _init_worker(budget: float | None) -> None:
    import importlib

    from games.engines import search

    search.CLOCK = time.process_time  # budgets in CPU time: other work on the machine does not count
    if budget is None:
        return

    for module in BOT_MODULES.values():
        bots = importlib.import_module(module)
        if hasattr(bots, "HARD_BUDGET_S"):
            bots.HARD_BUDGET_S = budget


def play_task(task: dict[str, Any]) -> dict[str, Any]:
    """One game; the record holds the winners and each seat's CPU and wall seconds per move."""
    slug = task["slug"]
    engine = get_engine(slug)
    table = players_of(slug)
    players = task["players"]
    options = engine.parse_options(task["options"], players)
    state = engine.new_state(players, options, task["seed"])
    rngs = [random.Random(f"{task['seed']}:ladder:{seat}") for seat in range(players)]
    cpu: list[list[float]] = [[] for _ in range(players)]
    wall_worst = [0.0] * players
    moves = 0
    while True:
        to_act = engine.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        view = engine.view(state, seat)
        legal = engine.legal_moves(state, seat)
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        move = table[task["levels"][seat]](view, legal, rngs[seat])
        cpu[seat].append(time.process_time() - started_cpu)
        wall_worst[seat] = max(wall_worst[seat], time.perf_counter() - started_wall)
        state, _ = engine.apply(state, seat, move)
        moves += 1
    result = engine.result(state)
    assert result is not None
    return {
        **task,
        "winners": result.winners,
        "draw": result.draw,
        "moves": moves,
        "cpu": cpu,
        "wall_worst": wall_worst,
    }


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(scores: dict[tuple[str, str], list[float]], names: list[str]) -> dict[str, float]:
    """Bradley-Terry strengths by minorization-maximization, as Elo points (random = 0)."""
    strength = dict.fromkeys(names, 1.0)
    for _ in range(200):
        new = {}
        for name in names:
            won = sum(sum(s) for (a, b), s in scores.items() if a == name) + 0.5
            denom = 0.0
            for (a, b), s in scores.items():
                if a == name:
                    denom += len(s) / (strength[a] + strength[b])
            new[name] = won / denom if denom else strength[name]
        strength = new
    base = strength.get("random", 1.0)
    return {name: 400 * math.log10(strength[name] / base) for name in names}


def report(records: list[dict[str, Any]], slug: str) -> None:
    records = [r for r in records if r["slug"] == slug]
    if not records:
        return
    print(f"\n### {slug}")
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)  # (a, b) -> a's scores vs b
    times: dict[str, list[float]] = defaultdict(list)
    walls: dict[str, float] = defaultdict(float)
    for record in records:
        for seat, level in enumerate(record["levels"]):
            times[level].extend(record["cpu"][seat])
            walls[level] = max(walls[level], record["wall_worst"][seat])
        if record["players"] != 2 or "pair" not in record:
            continue
        for seat, level in enumerate(record["levels"]):
            other = record["levels"][1 - seat]
            score = 0.5 if not record["winners"] else float(seat in record["winners"])
            pairs[(level, other)].append(score)
    names = sorted({level for pair in pairs for level in pair})
    if pairs:
        print("2 players: row's win rate against column (games; 95% interval)")
        print(f"{'':>10} " + " ".join(f"{n:>18}" for n in names))
        for a in names:
            cells = []
            for b in names:
                s = pairs.get((a, b), [])
                if not s:
                    cells.append(f"{'-':>18}")
                    continue
                low, high = wilson(sum(s), len(s))
                cells.append(f"{100 * sum(s) / len(s):5.1f}% n={len(s):<3} ±{50 * (high - low):4.1f}")
            print(f"{a:>10} " + " ".join(cells))
        ratings = elo(pairs, names)
        print(
            "Elo-like rating (random = 0): "
            + ", ".join(f"{n} {ratings[n]:.0f}" for n in sorted(names, key=lambda n: -ratings[n]))
        )
    for seats in TABLES.get(slug, ()):
        tables = [r for r in records if r["players"] == seats and "star" in r]
        if not tables:
            continue
        print(f"{seats} seats, one player among normal bots (fair share {100 / seats:.0f}%):")
        for star in sorted({r["star"] for r in tables}):
            games = [r for r in tables if r["star"] == star]
            star_wins = sum(1 for r in games if r["levels"].index(star) in r["winners"])
            normal_wins = sum(sum(1 for s in r["winners"] if r["levels"][s] == "normal") for r in games)
            normal_seats = sum(seats - 1 for _ in games)
            rate, normal_rate = star_wins / len(games), normal_wins / normal_seats
            low, high = wilson(star_wins, len(games))
            ratio = rate / normal_rate if normal_rate else float("inf")
            print(
                f"  {star:>10}: wins {100 * rate:5.1f}% [{100 * low:.0f}-{100 * high:.0f}] of {len(games)}, "
                f"{rate * seats:.2f}x fair share; normal seats {100 * normal_rate:.1f}% (ratio {ratio:.2f})"
            )
    print(
        "ms per move (CPU): "
        + ", ".join(
            f"{n} median {1000 * statistics.median(t):.1f} worst {1000 * max(t):.0f} (wall worst {1000 * walls[n]:.0f})"
            for n, t in sorted(times.items())
            if t
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pair and per table line-up")
    parser.add_argument("--budget", type=float, default=None, help="hard bots' seconds per move (default 1)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--game", action="append", choices=GAMES, help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lineup", help="only the games whose key holds this text, e.g. 'hard' or '|4|hard|'")
    parser.add_argument("--out", default="var/ladder.jsonl", help="results file (JSON lines); resumes from it")
    parser.add_argument("--short", action="store_true", help="a quick run for make bench: 2 games, 0.05 s")
    args = parser.parse_args()
    if args.short:
        args.games, args.budget = 2, 0.05 if args.budget is None else args.budget
    slugs = args.game or list(GAMES)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done: list[dict[str, Any]] = []
    if out.exists():
        done = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    seen = {r["key"] for r in done}
    tasks = [t for slug in slugs for t in tasks_for(slug, args.games, args.seed) if t["key"] not in seen]
    if args.lineup:
        tasks = [t for t in tasks if args.lineup in t["key"]]
    print(
        f"{len(tasks)} games to play ({len(seen)} already in {out}), {args.jobs} jobs, "
        f"budget {args.budget or 'default'}",
        flush=True,
    )
    started = time.perf_counter()
    with out.open("a") as sink, multiprocessing.Pool(args.jobs, _init_worker, (args.budget,)) as pool:
        for number, record in enumerate(pool.imap_unordered(play_task, tasks), 1):
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            done.append(record)
            winners = ",".join(record["levels"][s] for s in record["winners"]) or "draw"
            clock = f"[{number}/{len(tasks)} {time.perf_counter() - started:.0f}s]"
            print(f"{clock} {record['key']}: {' '.join(record['levels'])} -> {winners}", flush=True)
    for slug in slugs:
        report(done, slug)
    return 0


if __name__ == "__main__":
    sys.exit(main())
