"""Events benchmark: open streams, how fast a move reaches the other screens, what an open
idle board costs the server, and the memory of an open stream.

    python bench/events.py [--matches 1000] [--seconds 60] [--rate 20] [--idle 60] [--stream mixed]

Steps (bench/run.py runs this script in its own process, after the web benchmark):
1. recreate the PostgreSQL database `dizzyevents`, migrate, collect static files; load two users per
   match (a session and an API token each) and `--matches` running two-player Solitaire Chess
   matches at their first move, with a chain of legal moves each (played by the engine from the
   match's seed);
2. start uvicorn (the site's ASGI application, production settings, plain http on a loopback port)
   with Redis as the live channel (and as the cache) when Redis answers;
3. open two streams per match, one per seat: `--stream sse` the board's (`/live/match/<id>/`, the
   session), `api` the API's NDJSON (`/api/v1/stream/match/<id>`, the token), `mixed` one of each,
   `browser` a browser's one stream (`/live/?boards=<id>:<revision>`), whose board then GETs its
   fragment at each revision as the page does; the server's memory and threads before and after
   give the memory per open stream and show that a stream holds no thread;
4. idle: the streams stay open with nothing happening for `--idle` seconds: the server's CPU
   (uvicorn and its PostgreSQL backends) over that time, less the same server's CPU with no stream
   open, per stream and minute, against the board's idle poll it replaces (30 a minute, each
   measured on the same server);
5. load: moves through the API at `--rate` a second across the matches for `--seconds`; every
   subscriber of the match must hear the move's revision: delivered, lost, duplicated, and the
   latency from the move's HTTP answer to each other subscriber of its match (p50, p95); with
   `browser`, also to the other seat's board redrawn (its fragment read), as the player sees it;
6. print a table and the targets; the last line is the figures as JSON.

The defaults are the issue's figures (2,000 subscribers, 20 moves a second, 60 s); on a small
machine run a smaller size (`--matches 100 --rate 5`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import events_client as client  # noqa: E402
from bench.web import config as web_config  # noqa: E402
from bench.web import database, loading, playing  # noqa: E402
from bench.web import server as web_server  # noqa: E402
from dizzysite.netutil import free_port  # noqa: E402

GAME = "solitaire-chess"
PG_EVENTS_URL = os.environ.get("BENCH_EVENTS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dizzyevents")
REDIS_LIVE_URL = os.environ.get("BENCH_LIVE_REDIS_URL", "redis://127.0.0.1:6379/12")
CHAIN = 8  # moves prepared per match (the default size plays 1,200 moves over 1,000 matches)
GRACE = 3.0  # seconds after the last move for its events to arrive
POLLS_PER_MINUTE = 30  # the board polls every 2 s

# Targets.
P50_TARGET_MS = 50
P95_TARGET_MS = 250
IDLE_SHARE_TARGET = 0.05


@dataclass
class Options:
    matches: int = 1000
    seconds: float = 60.0
    rate: float = 20.0
    idle: float = 60.0
    stream: str = "mixed"  # one board (SSE) and one API stream per match; "browser": redrawn boards
    workers: int = 1
    open_rate: float = 500.0  # new streams a second while opening


# --- the site: database, data, server --------------------------------------------------------------


def events_env(var_dir: Path) -> dict[str, str]:
    env = database.bench_env(var_dir)
    env["DATABASE_URL"] = PG_EVENTS_URL
    env["DJANGO_SETTINGS_MODULE"] = "bench.events_settings"
    if database.redis_answers(REDIS_LIVE_URL):
        env["LIVE_REDIS_URL"] = REDIS_LIVE_URL
    else:
        print(f"WARNING: no Redis at {REDIS_LIVE_URL}: the in-process broadcaster is measured.", flush=True)
    return env


def recreate_database() -> None:
    import psycopg

    name = urllib.parse.urlparse(PG_EVENTS_URL).path.lstrip("/")
    with psycopg.connect(web_config.PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def make_chain(seed: int) -> playing.Game:
    from games.engines.registry import get_engine

    engine = get_engine(GAME)
    states, records = playing.play(GAME, seed, CHAIN)
    options = engine.parse_options({}, 2)
    return playing.Game(GAME, seed, options, [], states[0], states[0], [(seat, move) for seat, move, _ in records])


@dataclass
class Loaded:
    match_ids: list[int]
    seat_users: list[list[int]]  # per match, the user of each seat
    sessions: dict[int, str]
    tokens: dict[int, str]
    revisions: list[int]
    chains: list[list[client.Move]]


def load_data(matches: int) -> Loaded:
    """Two fresh users per match (each user in one match: the per-user cap on streams stays out of
    the way), their sessions and tokens, and the matches at their start."""
    from django.db import connection, transaction

    from api.models import ApiToken
    from games.models import Match

    games = [make_chain(20250601 + n) for n in range(matches)]
    with transaction.atomic():
        users, sessions = loading.create_users(2 * matches)
        tokens = {user.pk: ApiToken.issue(user, "bench")[1] for user in users}
        seat_users = [[users[2 * n].pk, users[2 * n + 1].pk] for n in range(matches)]
        rows = loading.insert_matches([(game, [], None) for game in games], seat_users)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    ids = [row.pk for row in rows]
    revisions = dict(Match.objects.filter(pk__in=ids).values_list("pk", "revision"))
    chains = [
        [
            client.Move(pk, users_of[seat], version, move, tokens[users_of[seat]])
            for version, (seat, move) in enumerate(game.chain)
        ]
        for pk, game, users_of in zip(ids, games, seat_users)
    ]
    return Loaded(ids, seat_users, sessions, tokens, [revisions[pk] for pk in ids], chains)


def server_cores() -> list[int]:
    """The cores the server gets to itself: the first half of this machine's, when it has 4 or more
    (this process, the client, keeps the rest); none on a smaller machine, where both share them."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 4 or not shutil.which("taskset"):
        return []
    return cores[: len(cores) // 2]


def start_uvicorn(env: dict[str, str], port: int, workers: int, log_path: Path, cores: list[int]) -> subprocess.Popen:
    log = open(log_path, "wb")
    command = [sys.executable, "-m", "uvicorn", "dizzysite.asgi:application", "--host", "127.0.0.1"]
    if cores:
        command = ["taskset", "-c", ",".join(map(str, cores)), *command]
        os.sched_setaffinity(0, set(os.sched_getaffinity(0)) - set(cores))
    command += ["--port", str(port), "--workers", str(workers), "--no-access-log", "--log-level", "warning"]
    # No persistent connections under ASGI (Django's advice): a request's thread ends with the request,
    # and a connection it kept would linger until collected; a pool a process lends them instead, as
    # in production (docs/production.md).
    env = {**env, "DATABASE_CONN_MAX_AGE": "0", "DATABASE_POOL_SIZE": "20"}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            if asyncio.run(client.call(port, "GET", "/bench/bare/", {})).status == 200:
                return process
        except OSError:
            pass
        time.sleep(0.2)
    stop_uvicorn(process)
    raise RuntimeError(f"uvicorn did not answer within 30 s:\n{log_path.read_text()[-3000:]}")


def stop_uvicorn(process: subprocess.Popen | None) -> None:
    """Stop uvicorn and its worker processes: the whole process group it leads (start_new_session),
    so that no worker outlives a master that had to be killed."""
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # whatever of the group is left
    except ProcessLookupError:
        pass
    process.wait()


class Server:
    """The server's processes (uvicorn, its workers) and the bench database's PostgreSQL backends:
    CPU seconds and resident memory, from /proc."""

    def __init__(self, pid: int) -> None:
        import psycopg

        self.pid = pid
        self.db_name = urllib.parse.urlparse(PG_EVENTS_URL).path.lstrip("/")
        self.conn = psycopg.connect(web_config.PG_ADMIN_URL, autocommit=True)
        self.tick = os.sysconf("SC_CLK_TCK")

    def web_pids(self) -> list[int]:
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                fields = web_server.ServerCpu._stat(int(entry.name))
                if fields and int(fields[1]) == self.pid:
                    children.append(int(entry.name))
        return [self.pid, *children]

    def db_pids(self) -> list[int]:
        rows = self.conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db_name]).fetchall()
        return [row[0] for row in rows]

    def cpu(self) -> float:
        total = 0.0
        for pid in self.web_pids() + self.db_pids():
            fields = web_server.ServerCpu._stat(pid)
            if fields:
                total += (int(fields[11]) + int(fields[12])) / self.tick
        return total

    def status_total(self, name: str) -> int:
        """A field of /proc/<pid>/status (VmRSS in KB, Threads), summed over the web processes."""
        total = 0
        for pid in self.web_pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith(f"{name}:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total

    def rss_mb(self) -> float:
        return self.status_total("VmRSS") / 1024

    def threads(self) -> int:
        return self.status_total("Threads")

    def close(self) -> None:
        self.conn.close()


# --- the measurements ------------------------------------------------------------------------------


def subscribers(loaded: Loaded, kind: str, port: int) -> list[client.Subscriber]:
    subs = []
    for index, (pk, users) in enumerate(zip(loaded.match_ids, loaded.seat_users)):
        for seat, user in enumerate(users):
            sub_kind = kind if kind != "mixed" else (client.SSE if seat == 0 else client.API)
            if sub_kind in (client.SSE, client.BROWSER):
                headers = {"Cookie": f"sessionid={loaded.sessions[user]}", "Accept": "text/event-stream"}
            else:
                headers = {"Authorization": f"Bearer {loaded.tokens[user]}"}
            sub = client.Subscriber(pk, user, sub_kind, headers, loaded.revisions[index])
            sub.redraw_port = port if sub_kind == client.BROWSER else 0
            subs.append(sub)
    return subs


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def delivery(subs: list[client.Subscriber], played: list[client.Played]) -> dict[str, Any]:
    """Every accepted move's revision must reach every subscriber of its match once."""
    by_match: dict[int, list[client.Subscriber]] = {}
    for sub in subs:
        by_match.setdefault(sub.match, []).append(sub)
    expected = delivered = lost = late_only = 0
    latencies, from_sent, redrawn = [], [], []
    for move in played:
        if move.status != 200:
            continue
        for sub in by_match.get(move.match, []):
            expected += 1
            times = sub.received.get(move.revision)
            if times:
                delivered += 1
                from_sent.append(times[0] - move.sent)
                if sub.user != move.user:  # the other seat's screen: the issue's latency
                    latencies.append(times[0] - move.answered)
                    if move.revision in sub.redrawn:  # its board redrawn: the event, then the fragment
                        redrawn.append(sub.redrawn[move.revision] - move.answered)
            elif any(revision > move.revision for revision in sub.received):
                late_only += 1  # a later revision came instead: the client reads the newest state anyway
            else:
                lost += 1
    duplicated = sum(len(times) - 1 for sub in subs for times in sub.received.values())
    return {
        "expected": expected,
        "delivered": delivered,
        "lost": lost,
        "superseded": late_only,
        "duplicated": duplicated,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
        "max_ms": (max(latencies) if latencies else float("nan")) * 1000,
        "from_request_p50_ms": percentile(from_sent, 0.5) * 1000,
        "redrawn": len(redrawn),
        "redrawn_p50_ms": percentile(redrawn, 0.5) * 1000,
        "redrawn_p95_ms": percentile(redrawn, 0.95) * 1000,
        "redrawn_max_ms": (max(redrawn) if redrawn else float("nan")) * 1000,
    }


def poll_requests(loaded: Loaded) -> list[tuple[str, dict[str, str]]]:
    """The board's idle poll (answered 204), as its player's page sends it every 2 s."""
    return [
        (f"/matches/{pk}/?since={revision}", {"Cookie": f"sessionid={loaded.sessions[users[0]]}", "HX-Request": "true"})
        for pk, users, revision in zip(loaded.match_ids, loaded.seat_users, loaded.revisions)
    ]


async def poll_cpu_ms(port: int, server: Server, polls: list[tuple[str, dict[str, str]]]) -> tuple[float, str]:
    """The server's CPU (web processes and their PostgreSQL backends) per idle poll, and how many
    polls were answered 204."""
    count = max(200, min(2000, 4 * len(polls)))
    await client.repeat(port, "GET", polls, 50, 204)  # warm up
    before = server.cpu()
    good = await client.repeat(port, "GET", polls, count, 204)
    return (server.cpu() - before) / count * 1000, f"{good}/{count}"


async def measure(loaded: Loaded, opts: Options, port: int, server: Server) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    figures["poll_cpu_ms_uvicorn"], figures["polls_answered_204_uvicorn"] = await poll_cpu_ms(
        port, server, poll_requests(loaded)
    )
    # The server with no stream open, for as long as the idle phase: its own background.
    quiet = min(opts.idle, 20.0)
    before = server.cpu()
    await asyncio.sleep(quiet)
    background_per_s = (server.cpu() - before) / quiet
    rss_before = server.rss_mb()
    figures["threads_before"] = server.threads()

    subs = subscribers(loaded, opts.stream, port)
    stop = asyncio.Event()
    started = time.monotonic()
    tasks = await client.open_all(subs, port, stop, opts.open_rate)
    figures["open_seconds"] = time.monotonic() - started
    failed = [sub for sub in subs if not sub.opened]
    figures["streams_opened"] = len(subs) - len(failed)
    figures["streams_failed"] = len(failed)
    if failed:
        figures["first_failure"] = failed[0].error
    await asyncio.sleep(2)
    figures["rss_before_mb"], figures["rss_open_mb"] = rss_before, server.rss_mb()
    figures["kb_per_stream"] = (figures["rss_open_mb"] - rss_before) * 1024 / max(1, figures["streams_opened"])
    figures["db_connections_open"] = len(server.db_pids())  # the streams must not hold one each
    figures["threads_open"] = server.threads()  # nor a thread each

    before = server.cpu()
    await asyncio.sleep(opts.idle)
    idle_cpu = server.cpu() - before - background_per_s * opts.idle
    per_board_minute_ms = max(0.0, idle_cpu) / max(1, figures["streams_opened"]) / (opts.idle / 60) * 1000
    figures["idle_cpu_ms_per_stream_minute"] = per_board_minute_ms
    figures["heartbeats_per_stream_minute"] = sum(s.heartbeats for s in subs) / max(1, len(subs)) / (opts.idle / 60)
    figures["db_connections_idle"] = len(server.db_pids())  # after the heartbeats' checks

    before_load = server.cpu()
    played = await client.play_at_rate(port, loaded.chains, opts.rate, opts.seconds)
    await asyncio.sleep(GRACE)
    await client.redraws_done(subs, GRACE)
    figures["load_cpu_s"] = server.cpu() - before_load
    figures["moves_played"] = sum(1 for move in played if move.status == 200)
    figures["moves_refused"] = sum(1 for move in played if move.status != 200)
    figures["move_answer_p50_ms"] = percentile([m.answered - m.sent for m in played], 0.5) * 1000
    figures.update(delivery(subs, played))
    statuses: dict[int, int] = {}
    for sub in subs:
        for status, count in sub.fragment_statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    figures["fragment_gets"] = sum(statuses.values())
    figures["fragment_failed"] = sum(count for status, count in statuses.items() if status not in (200, 204))
    ended = [sub for sub in subs if sub.opened and sub.error]
    figures["streams_ended_early"] = len(ended)
    if ended:
        figures["first_early_end"] = ended[0].error
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return figures


# --- the report ------------------------------------------------------------------------------------


def targets(f: dict[str, Any], subscribers_count: int) -> list[tuple[str, bool, str]]:
    held = f["streams_opened"] == subscribers_count and f["streams_ended_early"] == 0
    return [
        (
            f"{subscribers_count} streams held",
            held,
            f"{f['streams_opened']} opened, {f['streams_ended_early']} ended early",
        ),
        (
            "every event delivered, 0 lost, 0 duplicated",
            f["lost"] == 0 and f["duplicated"] == 0 and f["expected"] > 0,
            f"{f['delivered']}/{f['expected']} delivered, {f['lost']} lost, {f['duplicated']} duplicated",
        ),
        ("0 moves refused", f["moves_refused"] == 0, f"{f['moves_refused']} refused"),
        ("no error in the server's log", f["server_errors"] == 0, f"{f['server_errors']} errors"),
        (f"latency p50 <= {P50_TARGET_MS} ms", f["p50_ms"] <= P50_TARGET_MS, f"{f['p50_ms']:.1f} ms"),
        (f"latency p95 <= {P95_TARGET_MS} ms", f["p95_ms"] <= P95_TARGET_MS, f"{f['p95_ms']:.1f} ms"),
        *redraw_targets(f),
        (
            f"idle board <= {IDLE_SHARE_TARGET:.0%} of its poll's CPU",
            f["idle_share_of_poll"] <= IDLE_SHARE_TARGET,
            f"{f['idle_share_of_poll']:.1%}",
        ),
    ]


def redraw_targets(f: dict[str, Any]) -> list[tuple[str, bool, str]]:
    if not f["fragment_gets"]:
        return []
    return [
        (
            f"board redrawn p95 <= {P95_TARGET_MS} ms",
            f["redrawn_p95_ms"] <= P95_TARGET_MS,
            f"{f['redrawn_p95_ms']:.1f} ms",
        ),
        ("every fragment GET answered", f["fragment_failed"] == 0, f"{f['fragment_failed']} failed"),
    ]


def report(f: dict[str, Any], opts: Options, subscribers_count: int) -> list[str]:
    rows = [
        (
            "streams open (held)",
            f"{f['streams_opened']} of {subscribers_count} ({opts.stream}), opened in {f['open_seconds']:.1f} s",
        ),
        (
            "moves played",
            f"{f['moves_played']} at {opts.rate:g}/s for {opts.seconds:g} s ({f['moves_refused']} refused)",
        ),
        (
            "events delivered / lost / duplicated",
            f"{f['delivered']} / {f['lost']} / {f['duplicated']} (superseded {f['superseded']})",
        ),
        (
            "move answer -> other screen, p50 / p95 / max",
            f"{f['p50_ms']:.1f} / {f['p95_ms']:.1f} / {f['max_ms']:.1f} ms",
        ),
        (
            "move request -> every screen, p50",
            f"{f['from_request_p50_ms']:.1f} ms (the move's own answer: {f['move_answer_p50_ms']:.1f} ms)",
        ),
        (
            "move answer -> other board redrawn, p50 / p95 / max",
            f"{f['redrawn_p50_ms']:.1f} / {f['redrawn_p95_ms']:.1f} / {f['redrawn_max_ms']:.1f} ms "
            f"({f['redrawn']} redrawn; {f['fragment_gets']} fragment GETs, {f['fragment_failed']} failed)",
        ),
        ("server threads, before / streams open", f"{f['threads_before']} / {f['threads_open']}"),
        ("server CPU per idle stream and minute", f"{f['idle_cpu_ms_per_stream_minute']:.2f} ms"),
        (
            "the 2 s poll it replaces, per minute",
            f"{POLLS_PER_MINUTE} x {f['poll_cpu_ms']:.2f} ms = {POLLS_PER_MINUTE * f['poll_cpu_ms']:.1f} ms "
            f"(gunicorn, where it runs today; under uvicorn {f['poll_cpu_ms_uvicorn']:.2f} ms a poll)",
        ),
        ("idle stream as a share of the poll", f"{f['idle_share_of_poll']:.1%}"),
        (
            "memory per open stream",
            f"{f['kb_per_stream']:.1f} KB (server RSS {f['rss_before_mb']:.0f} -> {f['rss_open_mb']:.0f} MB)",
        ),
        ("heartbeats per stream and minute", f"{f['heartbeats_per_stream_minute']:.1f}"),
        (
            "PostgreSQL connections to the bench database, streams open",
            f"{f['db_connections_open']} after opening, {f['db_connections_idle']} after the idle phase",
        ),
    ]
    print()
    print(
        f"Events benchmark: uvicorn ({opts.workers} processes), {f['broadcaster']}, PostgreSQL, "
        f"{opts.matches} two-player matches, {os.cpu_count()} cores "
        f"({f.get('server_cores') or 'shared by server and client'}), load average {os.getloadavg()[0]:.1f}"
    )
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"  {label:<{width}}  {value}")
    print()
    print("Targets:")
    rows_t = targets(f, subscribers_count)
    for label, met, figure in rows_t:
        print(f"  {'MET    ' if met else 'NOT MET'}  {label}: {figure}")
    return [label for label, met, _ in rows_t if not met]


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Options()
    parser.add_argument("--matches", type=int, default=defaults.matches, help="two subscribers each")
    parser.add_argument("--seconds", type=float, default=defaults.seconds, help="the load's length")
    parser.add_argument("--rate", type=float, default=defaults.rate, help="moves a second across the matches")
    parser.add_argument("--idle", type=float, default=defaults.idle, help="seconds of open idle streams")
    parser.add_argument("--stream", choices=["sse", "api", "mixed", "browser"], default=defaults.stream)
    parser.add_argument("--workers", type=int, default=defaults.workers, help="uvicorn processes")
    parser.add_argument("--open-rate", type=float, default=defaults.open_rate, help="new streams a second")
    return Options(**vars(parser.parse_args(argv)))


def gunicorn_poll(env: dict[str, str], loaded: Loaded, var_dir: Path) -> dict[str, Any]:
    """The poll the streams replace, where it is served today: a sync gunicorn worker (WSGI)."""
    port = free_port()
    print(f"Measuring the idle poll on gunicorn (127.0.0.1:{port}) ...", flush=True)
    process = web_server.start_gunicorn(env, port, 1, var_dir / "gunicorn.log")
    server = Server(process.pid)
    try:
        cpu, answered = asyncio.run(poll_cpu_ms(port, server, poll_requests(loaded)))
    finally:
        server.close()
        web_server.stop_gunicorn(process)
    return {"poll_cpu_ms": cpu, "polls_answered_204": answered}


def main(opts: Options) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets per stream, here and there
    if 2 * opts.matches + 500 > hard:  # this process holds the client's end of each stream
        raise RuntimeError(f"{opts.matches} matches need more open files than the limit ({hard})")
    started = time.monotonic()
    var_dir = Path(tempfile.mkdtemp(prefix="dizzyevents-"))
    process = server = None
    try:
        env = events_env(var_dir)
        print(f"Recreating the database {PG_EVENTS_URL}, migrating ...", flush=True)
        recreate_database()
        errors: list[BaseException] = []
        database.prepare_site(env, errors)
        if errors:
            raise RuntimeError(f"migrate/collectstatic failed: {errors[0]}")
        os.environ.update(env)
        import django

        django.setup()
        print(f"Loading {opts.matches} matches, {2 * opts.matches} users ...", flush=True)
        loaded = load_data(opts.matches)
        from django.db import connections

        connections.close_all()
        port = free_port()
        print(f"Starting uvicorn on 127.0.0.1:{port} ({time.monotonic() - started:.0f} s so far) ...", flush=True)
        figures = gunicorn_poll(env, loaded, var_dir)
        cores = server_cores()
        process = start_uvicorn(env, port, opts.workers, var_dir / "uvicorn.log", cores)
        figures["server_cores"] = ",".join(map(str, cores))
        server = Server(process.pid)
        print(
            f"Measuring: polls, {2 * opts.matches} streams, {opts.idle:g} s idle, {opts.seconds:g} s of moves ...",
            flush=True,
        )
        figures.update(asyncio.run(measure(loaded, opts, port, server)))
        poll_minute_ms = POLLS_PER_MINUTE * figures["poll_cpu_ms"]
        figures["idle_share_of_poll"] = figures["idle_cpu_ms_per_stream_minute"] / poll_minute_ms
        figures["broadcaster"] = "Redis pub/sub" if "LIVE_REDIS_URL" in env else "in-process broadcaster"
        log = (var_dir / "uvicorn.log").read_text(errors="replace").strip()
        figures["server_errors"] = log.count("Traceback") + log.count("Internal Server Error")
        missed = report(figures, opts, 2 * opts.matches)
        if log:
            print("uvicorn said:\n" + log[-3000:])
        figures["options"] = asdict(opts)
        figures["targets_missed"] = missed
        print(f"(events benchmark took {time.monotonic() - started:.0f} s)")
        return figures
    finally:
        if server is not None:
            server.close()
        stop_uvicorn(process)
        shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    # SIGTERM (an interrupted `make bench`) unwinds like Ctrl-C: the finally blocks stop the servers.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    result = main(parse())
    print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in result.items()}, sort_keys=True))
    sys.exit(0)
