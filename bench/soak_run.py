"""`make run` played by bots for a while: does every bot keep moving?

    python bench/soak_run.py [--minutes 15] [--level normal] [--stall 60]

Not part of the test suite. It runs `make -o install run` (the supervisor with runserver, the worker
and beat on the embedded defaults: SQLite, the filesystem broker, the file cache) in a temporary
folder on a free loopback port, so it never touches the developer's data (`-o install`: the checkout
is installed already, and a shared virtualenv must not be reinstalled). Through the ORM it starts a
bot-only match in every game (alice creates it with bots in the other seats, then her seat is handed
to a bot, games.actions.do_hand_seat_to_bot), and a new one whenever one ends. Every few seconds it
counts each game's moves and asks /healthz. At the end it sends SIGTERM to make's process group, as a
process manager or a closed terminal does, and reads the log.

A stall: a game whose running match made no move for --stall seconds. Exit 0 when every game moved
throughout, /healthz never failed after the start, nothing died and the stop was clean; else 1.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from dizzysite.netutil import free_port  # noqa: E402

SEATS = {"solitaire-chess": 2, "doubting-flower-field": 2, "dizzy-duo-battle": 3, "lizzy-ghosties": 4}
SAMPLE_S = 5.0
START_TIMEOUT_S = 180.0
STOP_TIMEOUT_S = 60.0
LOG_SIGNS = {
    "unrecoverable": "Unrecoverable error",
    "json_decode_errors": "JSONDecodeError",
    "restarts": "exited (code",
    "warm_shutdowns": "Warm shutdown",
    "undecodable_set_aside": "undecodable broker message",
    "recursion_errors": "RecursionError",
    "stopping": "[make run] stopping everything",
    "stopped": "[make run] stopped",
}


@dataclass
class GameWatch:
    game: str
    match_id: int = 0
    matches: int = 0
    moves: int = 0
    last_move_at: float = field(default_factory=time.monotonic)
    longest_gap_s: float = 0.0
    stalls: int = 0
    stalled: bool = False


def soak_environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DEBUG": "true",
            "DIZZY_VAR_DIR": str(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'soak.sqlite3'}",
            "CELERY_BROKER_URL": "filesystem://",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CACHE_URL": "",
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        }
    )
    return env


def health(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def start_bot_match(game: str, level: str) -> int:
    from accounts.models import User
    from games import actions
    from games.seats import SeatSpec

    alice = User.objects.get(username="alice")
    seats = [SeatSpec("me")] + [SeatSpec("bot", level)] * (SEATS[game] - 1)
    match = actions.create_match(alice, game, seats, rated=False)
    actions.do_hand_seat_to_bot(match.pk, 0)
    return match.pk


def look(watch: GameWatch, level: str, stall_s: float) -> None:
    from games.models import Match, Move

    now = time.monotonic()
    moves = Move.objects.filter(match__game=watch.game).count()
    gap = now - watch.last_move_at  # without a move since the last look that saw one (SAMPLE_S apart)
    watch.longest_gap_s = max(watch.longest_gap_s, gap)
    if moves > watch.moves:
        watch.moves, watch.last_move_at, watch.stalled = moves, now, False
    if gap > stall_s and not watch.stalled:
        watch.stalled, watch.stalls = True, watch.stalls + 1
        print(f"STALL: {watch.game} match {watch.match_id}: no move for {gap:.0f} s", flush=True)
    if Match.objects.filter(pk=watch.match_id).exclude(status=Match.Status.ACTIVE).exists():
        watch.match_id, watch.matches = start_bot_match(watch.game, level), watch.matches + 1


def stop(make: subprocess.Popen) -> dict:
    started = time.monotonic()
    os.killpg(make.pid, signal.SIGTERM)  # make's whole group, as a process manager does
    try:
        code = make.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(make.pid, signal.SIGKILL)
        code = None
    return {"exit_code": code, "seconds": round(time.monotonic() - started, 1)}


def soak(args: argparse.Namespace, folder: Path) -> dict:
    env = soak_environment(folder)
    port = free_port()
    log_path = folder / "make-run.log"
    run_args = f"RUN_ARGS=--bind 127.0.0.1:{port} --noreload"
    with log_path.open("w") as log:
        make = subprocess.Popen(
            ["make", "-o", "install", "run", run_args],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while health(port) != 200:
            if make.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"make run did not become healthy; see {log_path}")
            time.sleep(1)
        os.environ.update(env)
        import django

        django.setup()
        watches = [GameWatch(game) for game in SEATS]
        for watch in watches:
            watch.match_id, watch.matches = start_bot_match(watch.game, args.level), 1
        health_codes: dict[int, int] = {}
        end = time.monotonic() + args.minutes * 60
        while time.monotonic() < end:
            time.sleep(SAMPLE_S)
            for watch in watches:
                look(watch, args.level, args.stall)
            code = health(port)
            health_codes[code] = health_codes.get(code, 0) + 1
    finally:
        stopped = stop(make)
    text = log_path.read_text(errors="replace")
    bad = folder / "broker" / "bad"
    return {
        "minutes": args.minutes,
        "level": args.level,
        "games": {
            w.game: {
                "moves": w.moves,
                "matches": w.matches,
                "longest_gap_s": round(w.longest_gap_s, 1),
                "stalls": w.stalls,
            }
            for w in watches
        },
        "healthz": health_codes,
        "log": {key: text.count(sign) for key, sign in LOG_SIGNS.items()},
        "bad_messages": len(list(bad.iterdir())) if bad.exists() else 0,
        "stop": stopped,
        "log_path": str(log_path),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--level", default="normal", choices=["random", "normal", "hard"])
    parser.add_argument("--stall", type=float, default=60.0, help="seconds without a move that make a stall")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its log, its database)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dizzy-soak-"))
    result = soak(args, folder)
    print(json.dumps(result, indent=2), flush=True)
    games_ok = all(g["moves"] > 0 and g["stalls"] == 0 for g in result["games"].values())
    log_ok = result["log"]["unrecoverable"] == 0 and result["log"]["restarts"] == 0
    # make itself ends by the SIGTERM (its code is -15); the supervisor's log says how it stopped.
    stop_ok = result["stop"]["exit_code"] is not None and result["log"]["stopping"] == result["log"]["stopped"] == 1
    ok = games_ok and log_ok and stop_ok and set(result["healthz"]) == {200}
    print("OK: every bot kept moving" if ok else "NOT OK", flush=True)
    if not args.keep:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
