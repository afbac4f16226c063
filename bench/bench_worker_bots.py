"""Bots in a real Celery worker: from the commit that makes it a bot's turn to the bot's Move row.

    python bench/bench_worker_bots.py [--turns N] [--seed S] [--broker URL]

"a move by a `hard` bot in a real worker arrives within the budget plus the queue's delay".
This starts `celery -A dizzysite worker` (as `make run` does, without beat, one task at a time: the
budget is for one core) on the embedded defaults, SQLite and kombu's filesystem broker, in a temporary
folder: it needs no server and never touches the developer's data. --broker redis://host:6379/N puts
the queue on Redis, as in production (a database that holds no other queue). For each game, this
process plays one human seat (random legal moves through games.actions.do_move) against bot seats
made by games.actions.create_match, first `random` bots (no thinking: what is left is the queue's
own delay), then `hard` ones, and times every bot move:
- start: the commit that made it the bot's turn, stamped by an on_commit hook that runs before the
  action's own (the bot's task is sent by one of those); when a bot follows a bot, the commit is the
  worker's and the start is the previous bot's Move row `created`, a few ms before that commit;
- end: the bot's Move row `created`, stamped by the worker as it writes the row, a few ms before the
  commit that shows it (the "visible" line gives how long after its stamp this process saw a row).
Both clocks are this machine's wall clock. The worker's log gives the bot task's own run time too
("in task": the thinking, without the queue).

The embedded broker is read once a second (kombu's polling interval) and the worker takes one message
per read, so its delays come in steps of about 1 s; the human's "your turn" email, queued by the
bot's previous move, is often read before the bot's next task. On Redis the queue takes milliseconds.

Targets per game: hard median <= HARD_BUDGET_S (games/engines/<game>/bots.py) + the random median,
and hard worst <= 3 s + the random worst (1 s median, 3 s worst on one core). A miss is
printed, not an error: exit 0 when it measured, exit 1 when it could not (the worker did not start,
a bot move never came).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

LEVELS = ("random", "hard")  # random first: its figures are the queue's delay the hard ones are judged by
HARD_WORST_S = 3.0  # a hard move's worst on one core
POLL_S = 0.01  # how often this process looks for the bot's move
MOVE_TIMEOUT_S = 60.0  # no bot move after this long: the worker is stuck, nothing to measure
WORKER_START_TIMEOUT_S = 60.0
SECONDS_PER_LEVEL = 60.0  # a game and level stop early after this long (the whole `make bench` stays short)
MATCHES_PER_LEVEL = 40  # in case matches end before a bot has moved
# The worker logs each task's run time (celery's INFO line): a bot's thinking, without the queue.
BOT_TASK_DONE = re.compile(r"Task games\.tasks\.play_bot_moves\[[^\]]*\] succeeded in ([0-9.]+(?:e-?[0-9]+)?)s")
SETTLE_S = HARD_WORST_S + 1.0  # a bot move in flight when its match is aborted ends within this


class NotMeasured(Exception):
    """The bench could not measure: the worker did not start or a bot move never came."""


@dataclass
class Timings:
    """One game and bot level: seconds from the turn's commit to the bot's Move row."""

    wanted: int  # bot moves to time
    stop_at: float  # time.monotonic() after which no more are waited for
    moves: list[float] = field(default_factory=list)
    visible: list[float] = field(default_factory=list)  # the bot's row seen by this process, after its stamp
    in_task: list[float] = field(default_factory=list)  # the worker's run time of play_bot_moves, from its log
    matches: int = 0

    def done(self) -> bool:
        return len(self.moves) >= self.wanted or time.monotonic() > self.stop_at


# --- the environment, Django and the worker ---------------------------------------------------------


def bench_environment(folder: Path, broker: str) -> dict[str, str]:
    """The embedded defaults in `folder` (the broker aside), whatever the developer's environment points at."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DEBUG": "true",  # as `make run`; SECRET_KEY and static manifests need not exist
            "DIZZY_VAR_DIR": str(folder),  # the broker's folders, the file cache, emails, keys
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "CELERY_BROKER_URL": broker,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CACHE_URL": "",  # the file cache under DIZZY_VAR_DIR
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "LOG_LEVEL": "INFO",  # the worker's "ready." line and its tasks' run times are INFO
        }
    )
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def die_with_parent() -> None:
    """In the worker before exec (Linux): SIGTERM when this process dies, even by SIGKILL (bench/run.py's
    timeout), so no worker is left polling a deleted folder."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "celery", "-A", "dizzysite", "worker", "--concurrency=1"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"]
    with log.open("w") as out:
        # Its own session: stopped as a group (the pool's child too), and Ctrl-C reaches this process only.
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
    deadline = time.monotonic() + WORKER_START_TIMEOUT_S
    while " ready." not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            raise NotMeasured(f"the worker did not start (exit {process.poll()})")
        time.sleep(0.2)
    return process


def stop_worker(process: subprocess.Popen) -> None:
    """Warm shutdown (it finishes its task), then a kill if it takes too long."""
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue


# --- playing: this process is the human, the worker the bots ----------------------------------------


def make_player() -> Any:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="bench", email="bench@example.com", password="pw-bench-1")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def stamped_commit(action: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """Run an action in a transaction whose first on_commit hook notes the time: the moment of the
    commit, before the action's own hooks (the bot's task among them) run."""
    from django.db import transaction

    stamps: list[float] = []
    with transaction.atomic():
        transaction.on_commit(lambda: stamps.append(time.time()))
        result = action(*args)
    return result, stamps[0]


def bot_to_act(match: Any, bot_seats: set[int]) -> bool:
    """From the match row alone (its state and version are one snapshot; the Seat rows may be newer)."""
    from games.engines.registry import get_engine

    return bool(set(get_engine(match.game).to_act(match.state)) & bot_seats)


def time_bot_moves(match: Any, bot_seats: set[int], since: float, timings: Timings) -> Any:
    """After this process's commit (at `since`): time the bot moves that follow, until no bot is to
    act (the human's turn, or the match is over) or `timings` is done. Returns the match as it then is."""
    from games.models import Match, Move

    version = match.version
    waited_since = time.monotonic()
    while True:
        latest = Match.objects.filter(pk=match.pk).values_list("version", flat=True).get()
        if latest == version:
            match.refresh_from_db()
            if match.version == version and not (match.status == Match.Status.ACTIVE and bot_to_act(match, bot_seats)):
                return match
            if time.monotonic() - waited_since > MOVE_TIMEOUT_S:
                raise NotMeasured(f"no bot move in {match.game} match {match.pk} after {MOVE_TIMEOUT_S:.0f} s")
            time.sleep(POLL_S)
            continue
        seen = time.time()
        one_new = latest == version + 1  # this process was looking as it came: its visibility counts
        for move in Move.objects.filter(match=match, number__gt=version, number__lte=latest).order_by("number"):
            if not move.by_bot:
                raise NotMeasured(f"move {move.number} of {match.game} match {match.pk} is not a bot's")
            created = move.created.timestamp()
            timings.moves.append(created - since)
            if one_new:
                timings.visible.append(seen - created)
            since, version = created, move.number
        if timings.done():  # in the middle of a chain of bot moves (a Solitaire Chess bot can play on alone)
            match.refresh_from_db()
            return match
        waited_since = time.monotonic()


def play_match(game: str, level: str, user: Any, rng: random.Random, timings: Timings) -> None:
    """One match of the human against bots of `level`, until it ends or `timings` is done."""
    from games import actions
    from games.engines.registry import get_engine
    from games.models import Match
    from games.seats import SeatSpec

    engine = get_engine(game)
    seats = [SeatSpec("me")] + [SeatSpec("bot", level)] * (engine.min_players - 1)
    match, since = stamped_commit(actions.create_match, user, game, seats)
    timings.matches += 1
    bot_seats = {seat.number for seat in match.seats.all() if seat.is_bot}
    (human,) = {seat.number for seat in match.seats.all()} - bot_seats
    while True:
        match = time_bot_moves(match, bot_seats, since, timings)
        if match.status != Match.Status.ACTIVE:
            return
        if timings.done():
            stop_match(match, user, bot_to_act(match, bot_seats))
            return
        if human not in engine.to_act(match.state):
            raise NotMeasured(f"nobody to act in {game} match {match.pk} at version {match.version}")
        move = rng.choice(engine.legal_moves(match.state, human))
        match, since = stamped_commit(actions.do_move, match.pk, user, match.version, move)


def stop_match(match: Any, user: Any, bot_thinking: bool) -> None:
    """Abort a match that is still running (the moderators' action), so that its bots stop queueing
    moves; a bot move already in the worker ends (refused: the match is over) before the next timing."""
    from games import actions

    actions.do_abort(match.pk, user, "bench: enough bot moves timed")
    if bot_thinking:
        time.sleep(SETTLE_S)


def measure(game: str, level: str, user: Any, rng: random.Random, turns: int, log: Path) -> Timings:
    timings = Timings(wanted=turns, stop_at=time.monotonic() + SECONDS_PER_LEVEL)
    log_start = log.stat().st_size
    while not timings.done() and timings.matches < MATCHES_PER_LEVEL:
        play_match(game, level, user, rng, timings)
    with log.open("rb") as lines:
        lines.seek(log_start)
        found = BOT_TASK_DONE.findall(lines.read().decode(errors="replace"))
    timings.in_task = [float(seconds) for seconds in found]
    if len(timings.moves) < turns:
        print(f"  {game} {level}: stopped after {SECONDS_PER_LEVEL:.0f} s or {timings.matches} matches", flush=True)
    if not timings.moves:
        raise NotMeasured(f"no {level} bot move in {game} in {timings.matches} matches")
    return timings


# --- the report ---------------------------------------------------------------------------------------


def hard_budget(game: str) -> float:
    from games.engines.registry import get_engine

    package = type(get_engine(game)).__module__.rpartition(".")[0]
    return float(importlib.import_module(f"{package}.bots").HARD_BUDGET_S)


def median_worst(seconds: list[float]) -> str:
    if not seconds:
        return f"{'-':>7} {'-':>7}"
    return f"{statistics.median(seconds):>6.2f}s {max(seconds):>6.2f}s"


def report(results: dict[str, dict[str, Timings]]) -> None:
    """Per game: hard and random moves (commit to Move row), the hard bot's task alone, the checks."""
    print(f"\n{'':<22} {'hard: commit to row':>24}   {'random (queue)':>24}   {'hard: in task':>15}")
    print(
        f"{'game':<22} {'n':>8} {'median':>7} {'worst':>7}   {'n':>8} {'median':>7} {'worst':>7}"
        f"   {'median':>7} {'worst':>7}   {'budget':>6}  {'median ok':<9} {'worst ok':<8}"
    )
    for game, by_level in results.items():
        hard, queue = by_level["hard"].moves, by_level["random"].moves
        budget = hard_budget(game)
        median_ok = statistics.median(hard) <= budget + statistics.median(queue)
        worst_ok = max(hard) <= HARD_WORST_S + max(queue)
        print(
            f"{game:<22} {len(hard):>8} {median_worst(hard)}   {len(queue):>8} {median_worst(queue)}"
            f"   {median_worst(by_level['hard'].in_task)}   {budget:>5.1f}s"
            f"  {'yes' if median_ok else 'MISSED':<9} {'yes' if worst_ok else 'MISSED':<8}"
        )
    visible = sorted(v for by_level in results.values() for t in by_level.values() for v in t.visible)
    if visible:
        print(
            f"\nA bot's row was seen by this process {statistics.median(visible) * 1000:.0f} ms (median, worst"
            f" {visible[-1] * 1000:.0f} ms) after its `created` stamp (polling every {POLL_S * 1000:.0f} ms)."
        )
    print(
        f"Targets: hard median <= budget + random median; hard worst <= {HARD_WORST_S:.0f} s + random worst."
        " 'In task': the worker's run time of play_bot_moves (its log), the bot's thinking without the queue."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="bot moves timed per game and level")
    parser.add_argument("--seed", type=int, default=1, help="the human's random moves")
    parser.add_argument("--broker", default="filesystem://", help="the queue (default: the embedded one)")
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C, so the finally block stops the worker.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    folder = Path(tempfile.mkdtemp(prefix="dizzy-bench-worker-"))
    log = folder / "worker.log"
    worker = None
    try:
        env = bench_environment(folder, args.broker)
        setup_django(env)
        from games.engines.registry import GAMES

        user = make_player()
        worker = start_worker(env, log)
        rng = random.Random(args.seed)
        results: dict[str, dict[str, Timings]] = {}
        for game in GAMES:
            results[game] = {}
            for level in LEVELS:
                timings = measure(game, level, user, rng, args.turns, log)
                results[game][level] = timings
                print(f"  {game} {level}: {len(timings.moves)} bot moves in {timings.matches} matches", flush=True)
        report(results)
        return 0
    except NotMeasured as error:
        print(f"could not measure: {error}", flush=True)
        if log.exists():
            print(f"--- the worker's log (end)\n{log.read_text()[-3000:]}", flush=True)
        return 1
    finally:
        if worker is not None:
            stop_worker(worker)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
