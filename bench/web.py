"""Web benchmark: the site under gunicorn on PostgreSQL, measured against a bare Django view.

Steps (bench/run.py calls main()):
1. recreate the PostgreSQL database `dizzybench`, migrate it, collect static files (DEBUG=false needs
   the manifest) into a temporary DIZZY_VAR_DIR;
2. load bench users (verified emails, one session each) and 1,000 active Solitaire Chess matches,
   half just started (1 move played) and half late in a long game: every state is the engine's own,
   reached by legal moves from the match's seed, the Move rows are those moves, and the last move of
   each match goes through actions.do_move so the rest of the rows are as the site makes them;
3. count database queries per request in-process (Django test Client + CaptureQueriesContext), on
   the board page at move 1, late in a real long game and with 200 Move rows; time in-process the
   bare view, the board page and its two templates alone (render_floor);
4. serve the site with `gunicorn dizzysite.wsgi -w 2` (sync workers, production settings, plain
   http on loopback) and drive it with bench/web_load.py from this process: the bare view, the board
   page, the idle poll and move submissions, in interleaved rounds, also reading the server's CPU
   time per request from /proc;
5. print a table, the targets with PASS/FAIL, and return the figures for the final JSON line.

Nothing here changes the site: bench/web_settings.py only adds /bench/bare/ and a private
STATIC_ROOT. Django is set up in this process with the bench environment, so call main() once.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import timedelta
from multiprocessing import Pool
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.web_load import Chains, Cycle, LoadResult, Req, Source, run_load  # noqa: E402

GAME = "solitaire-chess"
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BENCH_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dizzybench")

LONG_MARGIN = 10  # a long match is loaded this many moves before its game's end: still active
NEW_CHAIN = 30  # moves prepared per just-started match for the move benchmark
SYNTHETIC_HISTORY = 200  # Move rows of the query-count match "at move 200"

# Targets set for the site (see the report's Targets).
BOARD_TARGET = 0.50
POLL_TARGET = 0.80
MOVE_TARGET = 0.25
MAX_BOARD_QUERIES = 10
ROUNDS = 3  # each endpoint is measured in this many turns, interleaved with the others


@dataclass
class Options:
    seconds: float = 10.0  # measured load per endpoint
    warmup: float = 2.0
    threads: int = 4  # client threads: twice the workers, so a worker never waits for the client
    workers: int = 2
    matches: int = 1000
    users: int = 100


# --- games: real states reached by legal moves (pure engine code, runs in a process pool) -------


@dataclass
class Game:
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, dict[str, Any], list[dict[str, Any]]]]  # (seat, move, log entries)
    state: dict[str, Any]  # the state after `history`
    before_last: dict[str, Any]  # the state before the last move of `history`
    chain: list[tuple[int, dict[str, Any]]]  # the next legal moves from `state`, in order
    full_length: int  # moves in the whole game (or as far as it was played)


def patient_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The bench's own chooser, for long games: the card that skips fewest ranks, captures last.

    Random play ends Solitaire Chess in ~35-65 moves; this gives ~105-130 (a game cannot go much
    further: max_moves is 145), so "late in the game" is as long a history as the game has."""
    from games.engines.solitaire_chess import rules

    def key(move: dict[str, Any]) -> tuple[int, int, float]:
        if move["type"] != "move":
            return (1, 0, rng.random())
        if move["to"] in state["pieces"]:
            return (2, 0, rng.random())
        card = state["cards"][move["to"]]
        skip = rules.rank_of(card) - rules.top_rank(state["stacks"][seat][rules.suit_of(card)])
        return (0, skip, rng.random())

    try:
        return min(legal, key=key)
    except (KeyError, TypeError, AttributeError):
        # The engine's state changed shape: any legal move still makes a real game, a shorter one.
        return rng.choice(legal)


def make_game(seed: int, late: bool) -> Game:
    """Play a game with patient_move; keep 1 move (late=False) or all but LONG_MARGIN as history."""
    from games.engines.registry import get_engine

    engine = get_engine(GAME)
    options = engine.parse_options({}, 2)
    rng = random.Random(seed)
    states = [engine.new_state(2, options, seed)]
    records: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
    limit = 10_000 if late else 1 + NEW_CHAIN + 1
    while len(records) < limit:
        to_act = engine.to_act(states[-1])
        if not to_act:
            break
        seat = to_act[0]
        move = patient_move(states[-1], seat, engine.legal_moves(states[-1], seat), rng)
        state, entries = engine.apply(states[-1], seat, move)
        records.append((seat, move, entries))
        states.append(state)
    ended = not engine.to_act(states[-1])
    keep = max(1, len(records) - LONG_MARGIN) if late else 1
    # The chain never plays the game's last move, so every match stays active.
    chain_end = len(records) - 1 if ended else len(records)
    chain = [(seat, move) for seat, move, _ in records[keep:chain_end]]
    return Game(seed, options, records[:keep], states[keep], states[keep - 1], chain, len(records))


def make_games(count: int, seed: int) -> tuple[list[Game], Game, Game]:
    """`count` games (even indexes just started, odd ones late) plus two probes for query counts."""
    rng = random.Random(seed)
    jobs = [(rng.getrandbits(128), index % 2 == 1) for index in range(count + 2)]
    jobs[-2] = (jobs[-2][0], True)  # the probe of a long history
    jobs[-1] = (jobs[-1][0], False)  # the probe that moves in-process
    with Pool(min(2, os.cpu_count() or 1)) as pool:
        games = pool.starmap(make_game, jobs, chunksize=20)
    return games[:count], games[-2], games[-1]


# --- the database and the site's environment ----------------------------------------------------


def bench_env(var_dir: Path) -> dict[str, str]:
    """Production settings (DEBUG=false) serving plain http on loopback, on the bench database."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.web_settings",
            "DATABASE_URL": PG_BENCH_URL,
            "DEBUG": "false",
            "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",  # no TLS on loopback
            "CELERY_BROKER_URL": "memory://localhost/",  # no worker: queued emails/bot moves are not sent
            "DIZZY_VAR_DIR": str(var_dir),
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")])),
        }
    )
    return env


def recreate_database() -> None:
    import psycopg

    name = urllib.parse.urlparse(PG_BENCH_URL).path.lstrip("/")
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        # FORCE ends connections a killed earlier run may have left (PostgreSQL 13+).
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def prepare_site(env: dict[str, str], errors: list[BaseException]) -> None:
    """Migrate and collect static files (in subprocesses, while the games are being played)."""
    try:
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=REPO, env=env, check=True)
        # Models changed without a migration make the load fail with "column ... does not exist".
        check = [sys.executable, "manage.py", "makemigrations", "--check", "--dry-run", "-v0"]
        if subprocess.run(check, cwd=REPO, env=env).returncode != 0:
            print("WARNING: some model changes have no migration yet; loading may fail.", flush=True)
    except BaseException as error:  # reported by the main thread
        errors.append(error)


# --- loading the matches (in-process Django, after django.setup()) -----------------------------


@dataclass
class Loaded:
    match_ids: list[int]
    late: list[bool]
    history: list[int]  # moves played in each match
    revisions: list[int]
    seat_users: list[tuple[int, int]]  # user ids of seats 0 and 1
    to_act_user: list[int]
    sessions: dict[int, str]  # user id -> session key
    chains: list[list[tuple[int, int, dict[str, Any]]]]  # per match: (user id, version, move)
    probe_long_id: int = 0
    probe_long_moves: int = 0
    probe_200_id: int = 0
    probe_move_id: int = 0
    probe_move_user: int = 0
    probe_move_version: int = 0
    probe_move: dict[str, Any] = field(default_factory=dict)


def load_data(games: list[Game], probe_long: Game, probe_move: Game, users: int) -> Loaded:
    """Bulk-insert users, sessions, matches, seats and all moves but the last of each match; then
    play that last move through the site's own actions.do_move, so whatever a move sets (who is to
    act, deadlines, clocks, revision) is exactly what the site would have."""
    from importlib import import_module

    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games import actions
    from games.engines.registry import get_engine
    from games.models import Match, Move, Seat, TimeControl

    engine = get_engine(GAME)
    now = timezone.now()
    turn, periods, period = TimeControl.figures("daily", GAME)
    # Per match: (game, the Move rows to insert, the last move to play through the site).
    plans = [(game, game.history[:-1], game.history[-1]) for game in [*games, probe_long, probe_move]]
    # "Move 200": the long probe's real moves repeated as history (Solitaire Chess never lasts 200
    # moves), ending with its real last move; the state is the real one.
    real = probe_long.history[:-1]
    plans.insert(
        len(games) + 1,
        (probe_long, [real[i % len(real)] for i in range(SYNTHETIC_HISTORY - 1)], probe_long.history[-1]),
    )

    with transaction.atomic():
        unusable = make_password(None)  # no password hashing per user: sessions are made directly
        user_rows = User.objects.bulk_create(
            [
                User(username=f"bench{n:03d}", email=f"bench{n:03d}@bench.invalid", password=unusable)
                for n in range(users)
            ]
        )
        EmailAddress.objects.bulk_create(
            [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in user_rows]
        )
        user_ids = [u.pk for u in user_rows]
        pairs = []
        for index in range(len(plans)):
            # Two different users; each user sits in about 2 * matches / users matches.
            first = index % users
            second = (first + 1 + (index // users) % (users - 1)) % users
            pairs.append((user_ids[first], user_ids[second]))
        match_rows = [
            Match(
                game=GAME,
                options=game.options,
                status=Match.Status.ACTIVE,
                created_by_id=pair[0],
                started=now,
                seed=str(game.seed),
                state=game.before_last,
                version=len(rows),
                revision=len(rows) + 2,  # created, joined, started: then one per move
                time_preset="daily",
                turn_seconds=turn,
                reserve_periods=periods,
                period_seconds=period,
                deadline=now + timedelta(seconds=turn),
            )
            for (game, rows, _), pair in zip(plans, pairs)
        ]
        Match.objects.bulk_create(match_rows, batch_size=500)
        seat_rows = []
        move_rows = []
        for match, (game, rows, _), pair in zip(match_rows, plans, pairs):
            to_act = engine.to_act(game.before_last)
            for number, user_id in enumerate(pair):
                seat_rows.append(
                    Seat(
                        match=match,
                        number=number,
                        user_id=user_id,
                        accepted=True,
                        to_act=number in to_act,
                        reserve_left=periods,
                    )
                )
            for number, (seat, move, entries) in enumerate(rows, start=1):
                move_rows.append(Move(match=match, number=number, seat=seat, payload=move, log=entries))
        Seat.objects.bulk_create(seat_rows, batch_size=2000)
        Move.objects.bulk_create(move_rows, batch_size=2000)

        # One logged-in session per user, as django.contrib.auth.login() stores it.
        store = import_module(settings.SESSION_ENGINE).SessionStore
        sessions = {}
        for user in user_rows:
            session = store()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            sessions[user.pk] = session.session_key

    users_by_id = {u.pk: u for u in user_rows}
    for match, (game, rows, (seat, move, _)), pair in zip(match_rows, plans, pairs):
        done = actions.do_move(match.pk, users_by_id[pair[seat]], len(rows), move)
        if done.state != game.state:
            raise RuntimeError(f"match {match.pk}: the site's state differs from the engine's")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as a live database would have

    count = len(games)
    ids = [m.pk for m in match_rows]
    revisions = dict(Match.objects.filter(pk__in=ids).values_list("pk", "revision"))
    to_act_user = dict(Seat.objects.filter(match_id__in=ids, to_act=True).values_list("match_id", "user_id"))
    loaded = Loaded(
        match_ids=ids[:count],
        late=[len(g.history) > 1 for g in games],
        history=[len(g.history) for g in games],
        revisions=[revisions[pk] for pk in ids[:count]],
        seat_users=pairs[:count],
        to_act_user=[to_act_user[pk] for pk in ids[:count]],
        sessions=sessions,
        chains=[],
    )
    for game, pair in zip(games, pairs):
        version = len(game.history)
        loaded.chains.append([(pair[seat], version + step, move) for step, (seat, move) in enumerate(game.chain)])
    loaded.probe_long_id, loaded.probe_long_moves = ids[count], len(probe_long.history)
    loaded.probe_200_id = ids[count + 1]
    loaded.probe_move_id, loaded.probe_move_version = ids[count + 2], len(probe_move.history)
    seat, loaded.probe_move = probe_move.chain[0]
    loaded.probe_move_user = pairs[count + 2][seat]
    return loaded


def player_client(loaded: Loaded, user_id: int):
    """An in-process test Client (same settings, same database) signed in with the user's bench session."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = loaded.sessions[user_id]
    return client


def count_queries(loaded: Loaded) -> dict[str, int]:
    """Queries per request, in-process with the test Client (same settings, same database)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(user_id: int, method: str, path: str, expect: int, data: dict | None = None, **headers: str) -> int:
        client = player_client(loaded, user_id)
        with CaptureQueriesContext(connection) as captured:
            response = client.post(path, data, **headers) if method == "POST" else client.get(path, **headers)
        if response.status_code != expect:
            raise RuntimeError(f"{method} {path}: status {response.status_code}, expected {expect}")
        return len(captured.captured_queries)

    def to_act_user(match_id: int) -> int:
        from games.models import Seat

        return Seat.objects.filter(match_id=match_id, to_act=True).values_list("user_id", flat=True)[0]

    first_new = loaded.late.index(False)
    new_id, new_user = loaded.match_ids[first_new], loaded.to_act_user[first_new]
    long_user = to_act_user(loaded.probe_long_id)
    user_200 = to_act_user(loaded.probe_200_id)
    for _ in range(2):  # the first request of a process pays for imports and template loading
        queries(new_user, "GET", f"/matches/{new_id}/", 200)
    move_data = {"version": loaded.probe_move_version, "move": json.dumps(loaded.probe_move)}
    return {
        "bare": queries(new_user, "GET", "/bench/bare/", 200),
        "board_move1": queries(new_user, "GET", f"/matches/{new_id}/", 200),
        "board_long": queries(long_user, "GET", f"/matches/{loaded.probe_long_id}/", 200),
        "board_move200": queries(user_200, "GET", f"/matches/{loaded.probe_200_id}/", 200),
        "poll": queries(
            new_user, "GET", f"/matches/{new_id}/?since={loaded.revisions[first_new]}", 204, HTTP_HX_REQUEST="true"
        ),
        "move": queries(
            loaded.probe_move_user,
            "POST",
            f"/matches/{loaded.probe_move_id}/move/",
            200,
            move_data,
            HTTP_HX_REQUEST="true",
        ),
    }


def render_floor(loaded: Loaded, repeat: int = 300) -> dict[str, float]:
    """In-process milliseconds (one thread, same settings and database): the bare view, the board
    page, and the two templates every board page renders, from prepared contexts (no queries): the
    page around the board (base.html: the navigation, the turn count given) and the board fragment,
    for a just-started and a late match as the load mixes them. Whatever else a board page saved,
    it renders both, so bare / (bare + frame + fragment) bounds its ratio even if its data came
    for free."""
    from django.template import engines
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    from accounts.models import User
    from games import views

    def mean_ms(action) -> float:
        for _ in range(20):
            action()
        started = time.perf_counter()
        for _ in range(repeat):
            action()
        return (time.perf_counter() - started) / repeat * 1000

    def board_request(match_id: int, user_id: int):
        """The board's HTMX request as the template sees it, without the middleware."""
        request = RequestFactory(HTTP_HOST="127.0.0.1").get(f"/matches/{match_id}/", HTTP_HX_REQUEST="true")
        request.user = User.objects.get(pk=user_id)
        request.htmx = HtmxDetails(request)
        return request

    def board_ms(index: int) -> tuple[float, float]:
        """(board page, board fragment) for match `index` as its player to act."""
        match_id, user_id = loaded.match_ids[index], loaded.to_act_user[index]
        client = player_client(loaded, user_id)
        request = board_request(match_id, user_id)
        context = views.match_context(request, views._get_match(match_id))
        return (
            mean_ms(lambda: client.get(f"/matches/{match_id}/")),
            mean_ms(lambda: render_to_string("games/match.html#board", context, request)),
        )

    new, late = loaded.late.index(False), loaded.late.index(True)
    # The bare view and the frame do not depend on the match: measured once.
    client = player_client(loaded, loaded.to_act_user[new])
    request = board_request(loaded.match_ids[new], loaded.to_act_user[new])
    frame = engines["django"].from_string('{% extends "base.html" %}')
    figures = {
        "bare_ms": mean_ms(lambda: client.get("/bench/bare/")),
        "frame_ms": mean_ms(lambda: frame.render({"your_turn_count": 1}, request)),
    }
    figures["board_new_ms"], figures["fragment_new_ms"] = board_ms(new)
    figures["board_late_ms"], figures["fragment_late_ms"] = board_ms(late)
    fragment = (figures["fragment_new_ms"] + figures["fragment_late_ms"]) / 2
    figures["board_ratio_ceiling"] = figures["bare_ms"] / (figures["bare_ms"] + figures["frame_ms"] + fragment)
    return figures


# --- gunicorn -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(env: dict[str, str], port: int, workers: int, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "dizzysite.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
        + ["--log-level", "warning"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # Ctrl-C reaches only us; we stop gunicorn ourselves, cleanly
    )
    log.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/bench/bare/")
            if conn.getresponse().status == 200:
                conn.close()
                return process
            conn.close()
        except OSError:
            pass
        time.sleep(0.2)
    stop_gunicorn(process)
    raise RuntimeError(f"gunicorn did not answer within 30 s:\n{log_path.read_text()[-3000:]}")


def stop_gunicorn(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()  # the master stops its workers
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class ServerCpu:
    """CPU seconds of the gunicorn workers and of the PostgreSQL backends of the bench database.

    Read from /proc (Linux). The request rate depends on whatever else the machine runs; the
    server's CPU per request hardly does, so it backs the ratios up on a busy machine."""

    def __init__(self, master_pid: int) -> None:
        import psycopg

        self.master_pid = master_pid
        self.db_name = urllib.parse.urlparse(PG_BENCH_URL).path.lstrip("/")
        self.conn = psycopg.connect(PG_ADMIN_URL, autocommit=True)
        self.tick = os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _stat(pid: int) -> list[str] | None:
        try:
            # Fields after the command name, which is in parentheses and may hold spaces.
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None

    def pids(self) -> list[int]:
        workers = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                fields = self._stat(int(entry.name))
                if fields and int(fields[1]) == self.master_pid:  # fields[1]: the parent's pid
                    workers.append(int(entry.name))
        rows = self.conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.db_name]).fetchall()
        return workers + [row[0] for row in rows]

    def sample(self) -> dict[int, float]:
        cpu = {}
        for pid in self.pids():
            fields = self._stat(pid)
            if fields:
                cpu[pid] = (int(fields[11]) + int(fields[12])) / self.tick  # utime + stime
        return cpu

    def close(self) -> None:
        self.conn.close()


# --- the load -----------------------------------------------------------------------------------


def cookie(session_key: str, csrf: str = "") -> str:
    return f"sessionid={session_key}" + (f"; csrftoken={csrf}" if csrf else "")


def fetch_csrf(port: int, loaded: Loaded, user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """Per user: (csrftoken cookie, page token), from a board page as a browser gets them."""
    match_of = {}
    for match_id, pair in zip(loaded.match_ids, loaded.seat_users):
        for user_id in pair:
            match_of.setdefault(user_id, match_id)
    tokens = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for user_id in sorted(user_ids):
        conn.request("GET", f"/matches/{match_of[user_id]}/", headers={"Cookie": cookie(loaded.sessions[user_id])})
        response = conn.getresponse()
        body = response.read().decode()
        set_cookie = " ".join(response.headers.get_all("Set-Cookie") or [])
        csrf_cookie = re.search(r"csrftoken=([A-Za-z0-9]+)", set_cookie)
        page_token = re.search(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"', body)
        if response.status != 200 or not csrf_cookie or not page_token:
            raise RuntimeError(f"no CSRF token for user {user_id}: status {response.status}")
        tokens[user_id] = (csrf_cookie.group(1), page_token.group(1))
    conn.close()
    return tokens


def spread(requests: list[Req], threads: int) -> list[Source]:
    return [Cycle(requests, offset=len(requests) * t // threads) for t in range(threads)]


def run_all_loads(port: int, loaded: Loaded, opts: Options, cpu: ServerCpu) -> dict[str, LoadResult]:
    """Warm every endpoint up, then measure them in turns, ROUNDS times each, and add up.

    Taking turns spreads any change in the machine's other load over all endpoints alike, so the
    ratios to the baseline stay fair on a shared machine."""
    order = list(range(len(loaded.match_ids)))
    random.Random(7).shuffle(order)  # new and late matches mixed, users spread
    # Moves go to one half of the matches, board pages and polls to the other: a moved match has a
    # new revision (its poll would get the board, not 204) and a new player to act.
    still, moving = order[: len(order) // 2], order[len(order) // 2 :]

    def as_player(i: int) -> dict[str, str]:
        return {"Cookie": cookie(loaded.sessions[loaded.to_act_user[i]])}

    def is_bare(status: int, body: bytes) -> bool:
        return status == 200 and body == b"ok"

    # name -> (sources, check). Sources keep their place between rounds (move chains go on).
    endpoints: dict[str, tuple[list[Source], Any]] = {}
    # Baseline: the same logged-in players, so the session and user lookups that every page pays
    # (UserTimezoneMiddleware reads request.user) are in the baseline, not in the ratios.
    bare = [Req("GET", "/bench/bare/", as_player(i)) for i in order]
    endpoints["bare"] = (spread(bare, opts.threads), is_bare)
    endpoints["bare_anon"] = (spread([Req("GET", "/bench/bare/", {})], opts.threads), is_bare)
    # The full board page as the player to act opens it (their legal moves are drawn).
    board = [Req("GET", f"/matches/{loaded.match_ids[i]}/", as_player(i)) for i in still]
    endpoints["board"] = (spread(board, opts.threads), lambda status, body: status == 200 and b'id="board"' in body)
    # The idle poll of an open board page: htmx every DIZZY_POLL_SECONDS, answered 204.
    poll = [
        Req(
            "GET",
            f"/matches/{loaded.match_ids[i]}/?since={loaded.revisions[i]}",
            {**as_player(i), "HX-Request": "true"},
        )
        for i in still
    ]
    endpoints["poll"] = (spread(poll, opts.threads), lambda status, body: status == 204)
    # Moves as the board's form sends them (hx-post), each legal at its version, by the seat to act;
    # the answer is 200 with the new board, or 400/403/409 with the error shown (role="alert").
    chain_users = {user_id for i in moving for user_id, _, _ in loaded.chains[i]}
    tokens = fetch_csrf(port, loaded, chain_users)
    chains = [move_requests(loaded, i, tokens) for i in moving]
    endpoints["move"] = (
        [Chains(chains[t :: opts.threads]) for t in range(opts.threads)],
        lambda status, body: status == 200 and b'role="alert"' not in body,
    )

    print(f"  warming up ({opts.warmup:g} s per endpoint) ...", flush=True)
    for name, (sources, check) in endpoints.items():
        run_load(name, port, sources, check, opts.warmup, 0)
    results: dict[str, LoadResult] = {}
    for round_number in range(1, ROUNDS + 1):
        print(f"  round {round_number} of {ROUNDS}: {', '.join(endpoints)} ...", flush=True)
        for name, (sources, check) in endpoints.items():
            part = run_load(name, port, sources, check, opts.seconds / ROUNDS, 0, cpu_sample=cpu.sample)
            results[name] = results[name].merge(part) if name in results else part
    return results


def move_requests(loaded: Loaded, i: int, tokens: dict[int, tuple[str, str]]) -> list[Req]:
    """Match i's prepared moves as POSTs, each by the user of the seat to act at that version."""
    requests = []
    for user_id, version, move in loaded.chains[i]:
        csrf_cookie, page_token = tokens[user_id]
        form = {
            "csrfmiddlewaretoken": page_token,
            "version": version,
            "move": json.dumps(move, separators=(",", ":"), sort_keys=True),
        }
        headers = {
            "Cookie": cookie(loaded.sessions[user_id], csrf_cookie),
            "X-CSRFToken": page_token,  # what htmx sends (base.html's hx-headers)
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        requests.append(
            Req("POST", f"/matches/{loaded.match_ids[i]}/move/", headers, urllib.parse.urlencode(form).encode())
        )
    return requests


# --- the report ---------------------------------------------------------------------------------


LABELS = {
    "bare": "bare view /bench/bare/ (logged in)",
    "bare_anon": "bare view, anonymous (info)",
    "board": "board page, player to act",
    "poll": "idle poll (HX, since=rev: 204)",
    "move": "move POST (HX, legal move)",
}
QUERY_KEYS = {"bare": "bare", "board": "board_move1", "poll": "poll", "move": "move"}


def report(
    results: dict[str, LoadResult],
    queries: dict[str, int],
    floor: dict[str, float],
    loaded: Loaded,
    opts: Options,
    load_avg: tuple[float, float],
) -> dict[str, Any]:
    base = results["bare"].rps or 1e-9
    late = [moves for moves in loaded.history if moves > 1] or [1]
    base_cpu = results["bare"].server_cpu_ms
    print()
    print(
        f"Web benchmark: gunicorn -w {opts.workers} (sync) on PostgreSQL, DEBUG=false, {opts.threads} client "
        f"threads, {opts.seconds:g} s per endpoint in {ROUNDS} interleaved rounds after {opts.warmup:g} s warm-up, "
        f"{len(loaded.match_ids)} active matches ({loaded.late.count(False)} at move 1, "
        f"{loaded.late.count(True)} late in long games: {min(late)}-{max(late)} moves played)"
    )
    header = f"{'endpoint':36} {'ok':>6} {'failed':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'vs bare':>7}"
    header += f" {'CPU ms':>7} {'vs bare':>7} {'queries':>7}"
    print(header)
    print("-" * len(header))
    for name, result in results.items():
        q = queries.get(QUERY_KEYS.get(name, ""), "")
        cpu_ms = result.server_cpu_ms
        cpu_ratio = f"{base_cpu / cpu_ms:7.0%}" if cpu_ms else f"{'-':>7}"
        print(
            f"{LABELS[name]:36} {result.ok:6d} {result.failed:6d} {result.rps:7.1f} {result.percentile_ms(0.5):7.1f} "
            f"{result.percentile_ms(0.99):7.1f} {result.rps / base:7.0%} {cpu_ms:7.2f} {cpu_ratio} {q!s:>7}"
        )
    print(
        "(req/s and latencies as the client saw them; CPU ms: gunicorn workers plus PostgreSQL backends per "
        "request; its 'vs bare' is the throughput ratio the CPU cost predicts, little moved by other programs)"
    )
    cores = os.cpu_count() or 1
    print(f"Machine load average before/after the load: {load_avg[0]:.1f} / {load_avg[1]:.1f} on {cores} cores", end="")
    print(" - busy: figures are noisy" if max(load_avg) > cores else "")
    print(
        f"Queries per board page: move 1: {queries['board_move1']}, move {loaded.probe_long_moves} (a real long "
        f"game): {queries['board_long']}, move {SYNTHETIC_HISTORY} (synthetic history): {queries['board_move200']}"
    )
    print(
        f"In-process, one thread: bare view {floor['bare_ms']:.2f} ms; board page {floor['board_new_ms']:.2f} ms "
        f"(move 1) / {floor['board_late_ms']:.2f} ms (late). Templates alone, contexts prepared, no queries: the "
        f"page around the board {floor['frame_ms']:.2f} ms, the board fragment {floor['fragment_new_ms']:.2f} / "
        f"{floor['fragment_late_ms']:.2f} ms. Even with all its data for free, the board page could reach at most "
        f"{floor['board_ratio_ceiling']:.0%} of the baseline."
    )
    for name, result in results.items():
        if result.failed:
            print(f"  {name}: {result.failed} failed requests; first: {result.first_failure}")
        if result.exhausted:
            print(f"  {name}: ran out of prepared requests after {result.seconds:.1f} s")

    ratios = {name: results[name].rps / base for name in ("board", "poll", "move")}

    def by_cpu(name: str) -> str:
        cpu_ms = results[name].server_cpu_ms
        return f"{ratios[name]:.0%}" + (f" (by server CPU: {base_cpu / cpu_ms:.0%})" if cpu_ms else "")

    targets = [
        ("board page throughput >= 50% of baseline", ratios["board"] >= BOARD_TARGET, by_cpu("board")),
        ("idle poll throughput >= 80% of baseline", ratios["poll"] >= POLL_TARGET, by_cpu("poll")),
        ("move throughput >= 25% of baseline", ratios["move"] >= MOVE_TARGET, by_cpu("move")),
        (
            f"<= {MAX_BOARD_QUERIES} queries per board page",
            max(queries["board_move1"], queries["board_move200"]) <= MAX_BOARD_QUERIES,
            f"move 1: {queries['board_move1']}, move 200: {queries['board_move200']}",
        ),
        (
            "same queries at move 1 and move 200",
            queries["board_move1"] == queries["board_move200"],
            f"{queries['board_move1']} vs {queries['board_move200']}",
        ),
    ]
    print()
    print("Targets:")
    for label, passed, figure in targets:
        print(f"  {'PASS' if passed else 'FAIL'}  {label}: {figure}")
    missed = [label for label, passed, _ in targets if not passed]
    if missed:
        print(f"  {len(missed)} target(s) missed (a measurement, not a test: exit status stays 0).")
    else:
        print("  All targets met.")

    figures: dict[str, Any] = {
        "board_ratio": round(ratios["board"], 3),
        "poll_ratio": round(ratios["poll"], 3),
        "move_ratio": round(ratios["move"], 3),
        "queries_move1": queries["board_move1"],
        "queries_move200": queries["board_move200"],
        "queries_long_game": queries["board_long"],
        "long_game_moves": loaded.probe_long_moves,
        "late_matches_moves_min": min(late),
        "late_matches_moves_max": max(late),
        "queries_bare": queries["bare"],
        "queries_poll": queries["poll"],
        "queries_move_post": queries["move"],
        "inprocess_bare_ms": round(floor["bare_ms"], 2),
        "inprocess_board_new_ms": round(floor["board_new_ms"], 2),
        "inprocess_board_late_ms": round(floor["board_late_ms"], 2),
        "fragment_new_ms": round(floor["fragment_new_ms"], 2),
        "fragment_late_ms": round(floor["fragment_late_ms"], 2),
        "frame_ms": round(floor["frame_ms"], 2),
        "board_ratio_ceiling": round(floor["board_ratio_ceiling"], 3),
    }
    for name, result in results.items():
        figures[f"{name}_rps"] = round(result.rps, 1)
        figures[f"{name}_p50_ms"] = round(result.percentile_ms(0.5), 2)
        figures[f"{name}_p99_ms"] = round(result.percentile_ms(0.99), 2)
        figures[f"{name}_cpu_ms"] = round(result.server_cpu_ms, 2)
    figures["moves_ok"] = results["move"].ok
    figures["moves_failed"] = results["move"].failed
    figures["targets_missed"] = missed
    figures["all_targets_met"] = not missed
    return figures


def main(opts: Options) -> dict[str, Any]:
    started = time.monotonic()
    var_dir = Path(tempfile.mkdtemp(prefix="dizzybench-"))
    process: subprocess.Popen | None = None
    try:
        env = bench_env(var_dir)
        print(f"Recreating the database {PG_BENCH_URL} ...", flush=True)
        recreate_database()
        errors: list[BaseException] = []
        preparing = threading.Thread(target=prepare_site, args=(env, errors))
        preparing.start()
        print(f"Migrating and playing {opts.matches} games for the matches ...", flush=True)
        games, probe_long, probe_move = make_games(opts.matches, seed=20240601)
        preparing.join()
        if errors:
            raise RuntimeError(f"migrate/collectstatic failed: {errors[0]}")

        os.environ.update(env)
        import django

        django.setup()
        print(f"Loading users, sessions, matches and moves ({time.monotonic() - started:.0f} s so far) ...", flush=True)
        loaded = load_data(games, probe_long, probe_move, opts.users)
        queries = count_queries(loaded)
        floor = render_floor(loaded)
        from django.db import connections

        connections.close_all()

        port = free_port()
        print(f"Starting gunicorn on 127.0.0.1:{port} ({time.monotonic() - started:.0f} s so far) ...", flush=True)
        process = start_gunicorn(env, port, opts.workers, var_dir / "gunicorn.log")
        cpu = ServerCpu(process.pid)
        load_before = os.getloadavg()[0]
        try:
            results = run_all_loads(port, loaded, opts, cpu)
        finally:
            cpu.close()
        load_avg = (load_before, os.getloadavg()[0])
        stop_gunicorn(process)
        log = (var_dir / "gunicorn.log").read_text(errors="replace").strip()
        if log:
            print("gunicorn said:\n" + log[-3000:])
        figures = report(results, queries, floor, loaded, opts, load_avg)
        print(f"(web benchmark took {time.monotonic() - started:.0f} s)")
        return figures
    finally:
        stop_gunicorn(process)
        shutil.rmtree(var_dir, ignore_errors=True)
