"""`make bench`: the web benchmark (the package bench/web/), the events benchmark (bench/events.py), then
every bench/bench_*.py script.

The last line of the output is always one JSON object: the web benchmark's figures (or its error),
with the events benchmark's under "events". Missing a target is not an error (exit 0); failing to
measure is (exit 1).

Options: --seconds N (load per endpoint, default 10), --warmup N, --threads N, --matches N,
--skip-web, --skip-events, --skip-bots; the events benchmark's size: --events-matches N (two
subscribers each, default 1000), --events-seconds N (default 60), --events-rate N (moves a second,
default 20), --events-idle N (default 60), --events-stream sse|api|mixed (default mixed).

Then the boards sweep (--skip-boards to leave it out): bench/events.py with browser streams whose
boards GET their fragment at each event, as a player's page does, on two uvicorn processes, at each
size of --boards (open boards, default 500,2000,5000,10000), 10 moves a second for 30 s; it stops
after the first size that does not hold its streams and prints the table bench/RESULTS.md keeps,
under "boards" in the JSON.

An interrupted run (Ctrl-C, SIGTERM) stops the benchmark it is in, whose servers stop with it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
BOT_BENCH_TIMEOUT = 900  # seconds per bench_*.py script, so `make bench` always ends


def child_env(env: dict[str, str]) -> dict[str, str]:
    """`env` for a benchmark script run from the repository: the repository on its PYTHONPATH."""
    return {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))}


def run_bot_benches(env: dict[str, str]) -> list[str]:
    """Run bench/bench_*.py one after another, output straight through; return the failures."""
    failures = []
    env = child_env(env)
    for script in sorted(BENCH.glob("bench_*.py")):
        print(f"\n=== {script.relative_to(REPO)} ===", flush=True)
        code, _output = run_child([sys.executable, str(script)], env, BOT_BENCH_TIMEOUT)
        if code != 0:
            print(f"=== {script.name} failed: exit {code} ===", flush=True)
            failures.append(f"{script.name}: exit {code}")
    return failures


def run_short_ladder(env: dict[str, str]) -> list[str]:
    """A short run of the bot ladder (bench/ladder.py --short; `make ladder` for the full one)."""
    env = child_env(env)
    print("\n=== bench/ladder.py --short ===", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, str(BENCH / "ladder.py"), "--short", "--out", str(Path(folder) / "ladder.jsonl")]
        code, _output = run_child(command, env, BOT_BENCH_TIMEOUT)
    return [] if code == 0 else [f"ladder.py --short: exit {code}"]


EVENTS_TIMEOUT = 1800  # seconds: the events benchmark at the size takes a few minutes
STOP_WAIT_S = 60  # how long a benchmark told to stop may take to stop its servers


def run_child(command: list[str], env: dict[str, str], timeout: float) -> tuple[int | str, str]:
    """Run a benchmark script, its output straight through and kept; (exit code or "timeout", output).
    Interrupted or out of time, the script is told to stop (SIGTERM), so that its finally blocks stop
    the servers it started; only a script that does not stop is killed."""
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    lines: list[str] = []

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        code: int | str = process.wait(timeout)
    except subprocess.TimeoutExpired:
        code = "timeout"
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    reader.join(5)
    return code, "".join(lines)


def run_events_bench(env: dict[str, str], options: list[str], title: str = "bench/events.py") -> dict[str, Any]:
    """bench/events.py in its own process (it sets Django up with its own database), output straight
    through; its figures are its last line."""
    env = child_env(env)
    print(f"\n=== {title} ===", flush=True)
    code, output = run_child([sys.executable, str(BENCH / "events.py"), *options], env, EVENTS_TIMEOUT)
    lines = output.strip().splitlines()
    if code != 0 or not lines:
        return {"error": f"the events benchmark failed: exit {code}"}
    try:
        return json.loads(lines[-1])
    except ValueError:
        return {"error": "the events benchmark printed no figures"}


def events_options(args: argparse.Namespace) -> list[str]:
    options = ["--matches", str(args.events_matches), "--seconds", str(args.events_seconds)]
    options += ["--rate", str(args.events_rate), "--idle", str(args.events_idle), "--stream", args.events_stream]
    return options


BOARDS_RATE = 10  # moves a second
BOARDS_SECONDS = 30
BOARDS_WORKERS = 2  # uvicorn processes, as production's gunicorn runs them


def run_boards_sweep(env: dict[str, str], sizes: list[int]) -> list[dict[str, Any]]:
    """The events benchmark with browser streams at each size, until one does not hold."""
    rows = []
    for boards in sizes:
        options = ["--matches", str(boards // 2), "--stream", "browser", "--workers", str(BOARDS_WORKERS)]
        options += ["--rate", str(BOARDS_RATE), "--seconds", str(BOARDS_SECONDS), "--idle", "15"]
        figures = run_events_bench(env, options, f"bench/events.py, {boards} open boards")
        rows.append({"boards": boards, **figures})
        if not held(rows[-1]):
            break
    print("\n" + "\n".join(boards_table(rows)) + "\n\n" + sweep_verdict(rows), flush=True)
    return rows


REDRAWN_P95_TARGET_MS = 250


def held(row: dict[str, Any]) -> bool:
    return "error" not in row and row["streams_opened"] == row["boards"] and row["streams_ended_early"] == 0


def targets_met(row: dict[str, Any]) -> bool:
    """Held, nothing refused, lost or failed, no error logged, and the boards redrawn in time."""
    return (
        held(row)
        and row["moves_refused"] == 0
        and row["lost"] == 0
        and row["fragment_failed"] == 0
        and row["server_errors"] == 0
        and row["redrawn_p95_ms"] <= REDRAWN_P95_TARGET_MS
    )


def sweep_verdict(rows: list[dict[str, Any]]) -> str:
    met = [f"{row['boards']:,}" for row in rows if targets_met(row)]
    largest = max((row["boards"] for row in rows if held(row)), default=0)
    return (
        f"Targets met (every stream held, 0 moves refused, 0 events lost, 0 fragment GETs failed, 0 errors "
        f"logged, board redrawn p95 <= {REDRAWN_P95_TARGET_MS} ms) at: {', '.join(met) or 'no size'}. "
        f"The largest size held: {largest:,} open boards."
    )


def boards_table(rows: list[dict[str, Any]]) -> list[str]:
    """The sweep as bench/RESULTS.md keeps it (Markdown)."""
    lines = [
        "| open boards | held / dropped | moves / refused | events lost | other screen p95 "
        "| board redrawn p50 / p95 | server threads | memory a stream | errors logged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['boards']:,} | {row['error']} | | | | | | | |")
            continue
        lines.append(
            f"| {row['boards']:,} | {row['streams_opened']:,} / {row['streams_ended_early']} "
            f"| {row['moves_played']} / {row['moves_refused']} | {row['lost']} | {row['p95_ms']:.0f} ms "
            f"| {row['redrawn_p50_ms']:.0f} / {row['redrawn_p95_ms']:.0f} ms "
            f"| {row['threads_before']} -> {row['threads_open']} | {row['kb_per_stream']:.0f} KB "
            f"| {row['server_errors']} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="measured load per endpoint")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--threads", type=int, default=4, help="client threads")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--skip-web", action="store_true")
    parser.add_argument("--skip-bots", action="store_true")
    parser.add_argument("--skip-events", action="store_true")
    parser.add_argument("--events-matches", type=int, default=1000, help="two subscribers each")
    parser.add_argument("--events-seconds", type=float, default=60.0)
    parser.add_argument("--events-rate", type=float, default=20.0, help="moves a second")
    parser.add_argument("--events-idle", type=float, default=60.0, help="seconds of open idle streams")
    parser.add_argument("--events-stream", choices=["sse", "api", "mixed"], default="mixed")
    parser.add_argument("--skip-boards", action="store_true")
    parser.add_argument("--boards", default="500,2000,5000,10000", help="open boards at each size of the sweep")
    args = parser.parse_args()

    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop gunicorn.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    clean_env = dict(os.environ)  # before web.main() puts the bench settings into os.environ
    figures: dict[str, Any] = {}
    status = 0
    if not args.skip_web:
        sys.path.insert(0, str(REPO))
        from bench import web

        opts = web.Options(seconds=args.seconds, warmup=args.warmup, threads=args.threads, matches=args.matches)
        try:
            figures = web.main(opts)
        except Exception as error:  # noqa: BLE001 - reported, then the bot benches still run
            traceback.print_exc()
            figures = {"error": f"web benchmark failed: {error}"}
            status = 1
    if not args.skip_events:
        figures["events"] = run_events_bench(clean_env, events_options(args))
        if "error" in figures["events"]:
            status = 1
    if not args.skip_boards:
        figures["boards"] = run_boards_sweep(clean_env, [int(size) for size in args.boards.split(",")])
        if any("error" in row for row in figures["boards"]):
            status = 1
    if not args.skip_bots:
        failures = run_bot_benches(clean_env) + run_short_ladder(clean_env)
        if failures:
            figures["bot_bench_failures"] = failures
    sys.stdout.flush()
    print(json.dumps(figures, sort_keys=True), flush=True)
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        # The finally blocks have stopped gunicorn by now.
        print("\nInterrupted.", file=sys.stderr)
        sys.exit(130)
