"""Web benchmark: the site under gunicorn on PostgreSQL, measured against a bare Django view.

Steps (bench/run.py calls main()):
1. recreate the PostgreSQL database `dizzybench`, migrate it, collect static files (DEBUG=false needs
   the manifest) into a temporary DIZZY_VAR_DIR;
2. load bench users (verified emails, one session each) and 1,000 active matches, a quarter per game,
   half just started (1 move played) and half late: a Doubting Flower Field whose field fills up, a
   Lizzy Ghosties table of 8, a Dizzy Duo Battle of 6, a long Solitaire Chess, each kept at the
   heaviest state of its game's last third (the largest engine view plus legal moves for the player
   to act, see heaviest()). Every state is the engine's own, reached by legal moves from the match's seed, the
   Move rows are those moves, and the last move of each match goes through actions.do_move so the
   rest of the rows are as the site makes them;
3. in-process (Django test Client): queries per board page of every game at move 1, late and with
   200 Move rows, and where one board page's time goes (queries, engine, presenter, templates, gzip);
4. serve the site with `gunicorn dizzysite.wsgi -w 2` (sync workers, production settings, plain
   http on loopback) and drive it with bench/web_load.py from this process: the bare view, each
   game's board page, the idle poll and move submissions (Solitaire Chess), in interleaved rounds,
   also reading the server's CPU time per request from /proc; every request asks for gzip, as
   browsers do; each board page's compressed size and stylesheet links as served;
5. print a table, the targets as met or not, and return the figures for the final JSON line.

Nothing here changes the site: bench/web_settings.py only adds /bench/bare/ and a private
STATIC_ROOT, and the cache is Redis (BENCH_CACHE_URL) as in production when one answers. Django is
set up in this process with the bench environment, so call main() once.
"""

from __future__ import annotations

import gzip
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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from multiprocessing import Pool
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.web_load import Chains, Cycle, LoadResult, Req, Source, run_load  # noqa: E402

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

# Guards, not goals (issue 25 retired issue 13's "board page >= 50% of a bare view": its ceiling is
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


# --- games: real states reached by legal moves (pure engine code, runs in a process pool) -------


@dataclass
class Game:
    slug: str
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, dict[str, Any], list[dict[str, Any]]]]  # (seat, move, log entries)
    state: dict[str, Any]  # the state after `history`
    before_last: dict[str, Any]  # the state before the last move of `history`
    chain: list[tuple[int, dict[str, Any]]]  # the next legal moves from `state`, in order

    @property
    def players(self) -> int:
        return PLAYERS[self.slug]


Chooser = Callable[[dict[str, Any], int, list[dict[str, Any]], random.Random], dict[str, Any]]


def patient_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Solitaire Chess, long games: the card that skips fewest ranks, captures last.

    Random play ends Solitaire Chess in ~35-65 moves; this gives ~105-130 (max_moves is 145)."""
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
    except (KeyError, TypeError, AttributeError, IndexError):
        # The engine's state changed shape: any legal move still makes a real game, a shorter one.
        return rng.choice(legal)


def planting_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Doubting Flower Field: plant two flowers whenever possible, never challenge: the field fills up
    (49 flowers at the end, ~28 moves), where random play ends in ~30 moves with half of it empty."""
    order = {"plant": 0, "accept": 1, "pass": 1, "challenge": 3}

    def key(move: dict[str, Any]) -> tuple[int, int, float]:
        return (order.get(move["type"], 2), -len(move.get("flowers", ())), rng.random())

    return min(legal, key=key)


def random_move(state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(legal)


CHOOSERS: dict[str, Chooser] = {"solitaire-chess": patient_move, "doubting-flower-field": planting_move}


def play(slug: str, seed: int, limit: int) -> tuple[list[dict[str, Any]], list[tuple[int, dict, list]]]:
    """Up to `limit` moves of one game: the states (first one the initial) and the (seat, move, log) records."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)
    players = PLAYERS[slug]
    choose = CHOOSERS.get(slug, random_move)
    rng = random.Random(seed)
    states = [engine.new_state(players, engine.parse_options({}, players), seed)]
    records: list[tuple[int, dict, list]] = []
    while len(records) < limit:
        to_act = engine.to_act(states[-1])
        if not to_act:
            break
        seat = to_act[0]
        move = choose(states[-1], seat, engine.legal_moves(states[-1], seat), rng)
        state, entries = engine.apply(states[-1], seat, move)
        records.append((seat, move, entries))
        states.append(state)
    return states, records


def heaviest(slug: str, states: list[dict[str, Any]], first: int, last: int) -> int:
    """The index in [first, last] whose state gives the player to act the most to draw: the size of
    their engine view plus their legal moves, as JSON (a proxy for the board page's work)."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)

    def weight(index: int) -> int:
        state = states[index]
        seat = engine.to_act(state)[0]
        return len(json.dumps(engine.view(state, seat))) + len(json.dumps(engine.legal_moves(state, seat)))

    step = max(1, (last - first) // HEAVIEST_SAMPLE)  # a Duo Battle's last third is hundreds of states
    return max(range(last, first - 1, -step), key=weight)


def make_game(slug: str, seed: int, late: bool) -> Game:
    """A game kept after 1 move (late=False) or at its heaviest state in the last third of the game."""
    from games.engines.registry import get_engine

    engine = get_engine(slug)
    # Just started: one move, and the chain of moves for the move benchmark (its game only).
    states, records = play(slug, seed, 10_000 if late else 2 + (NEW_CHAIN if slug == MOVE_GAME else 0))
    ended = not engine.to_act(states[-1])
    last_active = len(records) - (LATE_MARGIN if ended else 0)  # keep states[keep] active
    keep = heaviest(slug, states, max(1, 2 * last_active // 3), max(1, last_active)) if late else 1
    # The chain never plays the game's last move, so every match stays active.
    chain_end = len(records) - 1 if ended else len(records)
    chain = [(seat, move) for seat, move, _ in records[keep:chain_end]]
    options = engine.parse_options({}, PLAYERS[slug])
    return Game(slug, seed, options, records[:keep], states[keep], states[keep - 1], chain)


def make_games(count: int, seed: int) -> tuple[list[Game], list[Game], Game]:
    """`count` games (a quarter per game; in each game, every other one late), a late probe per game
    for the query count at move 200, and a just-started Solitaire Chess to move in-process."""
    rng = random.Random(seed)
    slugs = list(PLAYERS)
    jobs = [(slugs[i % len(slugs)], rng.getrandbits(128), (i // len(slugs)) % 2 == 1) for i in range(count)]
    jobs += [(slug, rng.getrandbits(128), True) for slug in slugs]
    jobs.append((MOVE_GAME, rng.getrandbits(128), False))
    with Pool(min(2, os.cpu_count() or 1)) as pool:
        games = pool.starmap(make_game, jobs, chunksize=4)
    return games[:count], games[count:-1], games[-1]


# --- the database and the site's environment ----------------------------------------------------


def redis_answers(url: str) -> bool:
    parsed = urllib.parse.urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def bench_env(var_dir: Path) -> dict[str, str]:
    """Production settings (DEBUG=false) serving plain http on loopback, on the bench database and,
    when it answers, Redis as the cache (the board's presence marks live there)."""
    env = dict(os.environ)
    if redis_answers(REDIS_BENCH_URL):
        env["CACHE_URL"] = REDIS_BENCH_URL
    else:
        print(f"WARNING: no Redis at {REDIS_BENCH_URL}: the site's file cache is used instead.", flush=True)
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
    games: list[str]  # each match's game
    late: list[bool]
    history: list[int]  # moves played in each match
    revisions: list[int]
    seat_users: list[list[int]]  # user ids by seat number
    to_act_user: list[int]
    sessions: dict[int, str]  # user id -> session key
    chains: list[list[tuple[int, int, dict[str, Any]]]]  # per match: (user id, version, move)
    probe_200: dict[str, int] = field(default_factory=dict)  # game -> a late match with 200 Move rows
    probe_move_id: int = 0  # a just-started Solitaire Chess match, moved once in-process
    probe_move_user: int = 0
    probe_move_version: int = 0
    probe_move: dict[str, Any] = field(default_factory=dict)

    def pick(self, game: str, late: bool) -> list[int]:
        """Indexes of the game's matches, just started (late=False) or late."""
        return [i for i, (g, is_late) in enumerate(zip(self.games, self.late)) if g == game and is_late == late]


Plan = tuple[Game, list[tuple[int, dict, list]], tuple[int, dict, list]]  # game, Move rows, last move


def plans_for(games: list[Game], probes_200: list[Game], probe_move: Game) -> list[Plan]:
    """Per match: the game, the Move rows to insert, the last move to play through the site. A probe
    "at move 200" has its game's real moves as history, repeated or cut to 200 rows; its state is real."""
    plans = [(game, game.history[:-1], game.history[-1]) for game in games]
    for game in probes_200:
        real = game.history[:-1]
        plans.append((game, [real[i % len(real)] for i in range(SYNTHETIC_HISTORY - 1)], game.history[-1]))
    plans.append((probe_move, probe_move.history[:-1], probe_move.history[-1]))
    return plans


def create_users(count: int) -> tuple[list[Any], dict[int, str]]:
    """Bench users with verified emails and one logged-in session each (as auth.login() stores it)."""
    from importlib import import_module

    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    unusable = make_password(None)  # no password hashing per user: sessions are made directly
    users = User.objects.bulk_create(
        [User(username=f"bench{n:03d}", email=f"bench{n:03d}@bench.invalid", password=unusable) for n in range(count)]
    )
    EmailAddress.objects.bulk_create([EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users])
    store = import_module(settings.SESSION_ENGINE).SessionStore
    sessions = {}
    for user in users:
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[user.pk] = session.session_key
    return users, sessions


def insert_matches(plans: list[Plan], seat_users: list[list[int]]) -> list[Any]:
    """Matches, seats and Move rows in bulk, each match at the state before its last move."""
    from django.utils import timezone

    from games.engines.registry import get_engine
    from games.models import Match, Move, Seat, TimeControl

    now = timezone.now()
    matches = []
    for game, rows, _ in plans:
        turn, periods, period = TimeControl.figures("daily", game.slug)
        matches.append(
            Match(
                game=game.slug,
                options=game.options,
                status=Match.Status.ACTIVE,
                created_by_id=seat_users[len(matches)][0],
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
        )
    Match.objects.bulk_create(matches, batch_size=500)
    seats, moves = [], []
    for match, (game, rows, _), users in zip(matches, plans, seat_users):
        to_act = get_engine(game.slug).to_act(game.before_last)
        periods = match.reserve_periods
        for number, user_id in enumerate(users):
            seats.append(
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
            moves.append(Move(match=match, number=number, seat=seat, payload=move, log=entries))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Move.objects.bulk_create(moves, batch_size=2000)
    return matches


def load_data(games: list[Game], probes_200: list[Game], probe_move: Game, users: int) -> Loaded:
    """Bulk-insert users, sessions, matches, seats and all moves but the last of each match; then
    play that last move through the site's own actions.do_move, so whatever a move sets (who is to
    act, deadlines, clocks, revision) is exactly what the site would have."""
    from django.db import connection, transaction

    from games import actions
    from games.models import Match, Seat

    plans = plans_for(games, probes_200, probe_move)
    with transaction.atomic():
        user_rows, sessions = create_users(users)
        user_ids = [u.pk for u in user_rows]
        # Different users in every seat of a match; each user sits in many matches.
        seat_users = [random.Random(index).sample(user_ids, game.players) for index, (game, _, _) in enumerate(plans)]
        matches = insert_matches(plans, seat_users)
    users_by_id = {u.pk: u for u in user_rows}
    for match, (game, rows, (seat, move, _)), users_of in zip(matches, plans, seat_users):
        done = actions.do_move(match.pk, users_by_id[users_of[seat]], len(rows), move)
        if done.state != game.state:
            raise RuntimeError(f"match {match.pk}: the site's state differs from the engine's")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as a live database would have

    count = len(games)
    ids = [m.pk for m in matches]
    revisions = dict(Match.objects.filter(pk__in=ids).values_list("pk", "revision"))
    to_act_user = dict(Seat.objects.filter(match_id__in=ids, to_act=True).values_list("match_id", "user_id"))
    loaded = Loaded(
        match_ids=ids[:count],
        games=[g.slug for g in games],
        late=[len(g.history) > 1 for g in games],
        history=[len(g.history) for g in games],
        revisions=[revisions[pk] for pk in ids[:count]],
        seat_users=seat_users[:count],
        to_act_user=[to_act_user[pk] for pk in ids[:count]],
        sessions=sessions,
        chains=[],
        probe_200={game.slug: pk for game, pk in zip(probes_200, ids[count:])},
    )
    for game, users_of in zip(games, seat_users):
        version = len(game.history)
        loaded.chains.append([(users_of[seat], version + step, move) for step, (seat, move) in enumerate(game.chain)])
    loaded.probe_move_id, loaded.probe_move_version = ids[-1], len(probe_move.history)
    seat, loaded.probe_move = probe_move.chain[0]
    loaded.probe_move_user = seat_users[-1][seat]
    return loaded


# --- in-process: queries per request and where a board page's time goes ------------------------


def player_client(loaded: Loaded, user_id: int):
    """An in-process test Client (same settings, same database) signed in with the user's bench session."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = loaded.sessions[user_id]
    return client


def to_act_user(match_id: int) -> int:
    from games.models import Seat

    return Seat.objects.filter(match_id=match_id, to_act=True).values_list("user_id", flat=True)[0]


def request_sql(user_id: int, loaded: Loaded, method: str, path: str, expect: int, data=None, **headers) -> list[str]:
    """The queries of one request, in-process, as short_sql(); raises when the status is not `expect`."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = player_client(loaded, user_id)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, **headers) if method == "POST" else client.get(path, **headers)
    if response.status_code != expect:
        raise RuntimeError(f"{method} {path}: status {response.status_code}, expected {expect}")
    return [short_sql(query["sql"]) for query in queries.captured_queries]


def board_queries(loaded: Loaded, game: str) -> dict[str, int]:
    """Queries of the game's board page as the player to act: at move 1, late, with 200 Move rows."""
    probes = {
        "move 1": loaded.match_ids[loaded.pick(game, late=False)[0]],
        "late": loaded.match_ids[loaded.pick(game, late=True)[0]],
        "move 200": loaded.probe_200[game],
    }
    counts = {}
    for label, match_id in probes.items():
        user_id = to_act_user(match_id)
        request_sql(user_id, loaded, "GET", f"/matches/{match_id}/", 200)  # the first one pays for imports
        counts[label] = len(request_sql(user_id, loaded, "GET", f"/matches/{match_id}/", 200))
    return counts


def count_queries(loaded: Loaded) -> dict[str, Any]:
    """Queries per request: every board page, the bare view, the idle poll and a move POST."""
    boards: dict[str, Any] = {}
    for game in PLAYERS:
        try:
            boards[game] = board_queries(loaded, game)
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            boards[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
    first = loaded.pick(MOVE_GAME, late=False)[0]
    match_id, user_id = loaded.match_ids[first], loaded.to_act_user[first]
    poll = f"/matches/{match_id}/?since={loaded.revisions[first]}"
    move_data = {"version": loaded.probe_move_version, "move": json.dumps(loaded.probe_move)}
    move_path = f"/matches/{loaded.probe_move_id}/move/"
    move_sql = request_sql(loaded.probe_move_user, loaded, "POST", move_path, 200, move_data, HTTP_HX_REQUEST="true")
    return {
        "boards": boards,
        "bare": len(request_sql(user_id, loaded, "GET", "/bench/bare/", 200)),
        "poll": len(request_sql(user_id, loaded, "GET", poll, 204, HTTP_HX_REQUEST="true")),
        "move": len(move_sql),
        "move_sql": move_sql,
    }


def board_request(match_id: int, user):
    """The board page's request as the views and templates see it, without the middleware."""
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    request = RequestFactory(HTTP_HOST="127.0.0.1").get(f"/matches/{match_id}/")
    request.user = user
    request.htmx = HtmxDetails(request)
    return request


class QueryTimer:
    """An execute_wrapper: the SQL of each query on the connection and their database time."""

    def __init__(self) -> None:
        self.sql: list[str] = []
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.sql.append(sql)


def short_sql(sql: str) -> str:
    """ "SELECT games_match": the statement's verb and first table."""
    table = re.search(r'(?:FROM|UPDATE|INTO)\s+"?(\w+)', sql, re.IGNORECASE)
    return f"{sql.split(None, 1)[0].upper()} {table.group(1) if table else ''}".strip()


def median_ms(action: Callable[[], Any], budget: float = 0.1) -> float:
    """Median CPU milliseconds of this thread in `action` (at least 11 runs, about `budget` seconds of
    CPU), after a warm-up. CPU time and the median, so other programs on a shared machine barely count;
    what a query costs PostgreSQL is not in it (the DB figure is the queries' wall time)."""
    for _ in range(3):
        action()
    times: list[float] = []
    while len(times) < 11 or sum(times) < budget:
        t0 = time.thread_time()
        action()
        times.append(time.thread_time() - t0)
    return sorted(times)[len(times) // 2] * 1000


def page_parts(loaded: Loaded, index: int) -> dict[str, Any]:
    """One whole board page (gzip asked for) as match `index`'s player to act: CPU ms, its queries and
    their median wall time over 11 requests."""
    from django.db import connection

    client, url = player_client(loaded, loaded.to_act_user[index]), f"/matches/{loaded.match_ids[index]}/"
    page_ms = median_ms(lambda: client.get(url, HTTP_ACCEPT_ENCODING="gzip"))
    timers = [QueryTimer() for _ in range(11)]
    for timer in timers:
        with connection.execute_wrapper(timer):
            client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    db_ms = sorted(timer.seconds for timer in timers)[len(timers) // 2] * 1000
    return {"page": page_ms, "queries": len(timers[0].sql), "db": db_ms, "sql": timers[0].sql}


def presence_call(match_id: int, user) -> Callable[[], Any] | None:
    """The board page's presence mark: in the cache (games.presence) or, before, a write to the seat."""
    from importlib import import_module

    from games import views

    presence = import_module("games.presence") if (REPO / "games" / "presence.py").exists() else None
    if presence is not None and hasattr(presence, "mark_watching"):
        return lambda: presence.mark_watching(match_id, user.pk)
    seen = getattr(views, "_seen", None)
    return (lambda: seen(match_id, user)) if seen else None


def step_calls(loaded: Loaded, index: int) -> dict[str, Callable[[], Any] | None]:
    """Each step of match `index`'s board page as its player to act, ready to run alone on prepared
    input (None: the site has no such step now): the presence mark, loading the match and seats, the
    board's whole context (of which the engine's view and legal moves, the presenter, the chat's Django
    template, a board still drawn by a Django template), the Jinja2 page, its frame alone, and gzip."""
    from django.template import engines
    from django.template.loader import render_to_string
    from django.utils.text import compress_string

    from accounts.models import User
    from games import presenters, views
    from games.engines.registry import get_engine

    match_id, user = loaded.match_ids[index], User.objects.get(pk=loaded.to_act_user[index])
    request, match = board_request(match_id, user), views._get_match(match_id)
    engine, seat = get_engine(match.game), next(s.number for s in match.seats.all() if s.user_id == user.pk)
    pv = presenters.player_view(match, user, {"select": ""})
    legacy = getattr(views, "_legacy_board", None)
    context = views.match_context(request, match)
    page = engines["jinja2"].get_template("games/match.html")
    frame = engines["jinja2"].from_string('{% extends "base.html" %}')
    html = page.render(context, request).encode()
    return {
        "presence": presence_call(match_id, user),
        "match": lambda: views._get_match(match_id),
        "context": lambda: views.match_context(request, match),
        "view": lambda: engine.view(match.state, seat),
        "legal": lambda: engine.legal_moves(match.state, seat),
        "presenter": lambda: presenters.board_context(match.game, pv, {}),
        "chat": lambda: render_to_string("games/_chat.html", {"pv": pv}, request=request),
        "django_board": (lambda: legacy(request, pv)) if legacy and isinstance(pv.board, dict) else None,
        "templates": lambda: page.render(context, request),
        "frame": lambda: frame.render({}, request),
        "gzip": lambda: compress_string(html),
    }


def step_parts(loaded: Loaded, index: int) -> dict[str, float]:
    """step_calls() timed, CPU ms; 0 for a step the site does not have, -1 for one that failed."""
    parts = {}
    for name, call in step_calls(loaded, index).items():
        try:
            parts[name] = median_ms(call) if call else 0.0
        except Exception:  # noqa: BLE001 - the site changed under the bench: that step only is lost
            parts[name] = -1.0
    return parts


def breakdown(loaded: Loaded, game: str, bare_ms: float) -> dict[str, Any]:
    """Where the game's late board page's time goes (in-process, one thread, ms); its page at move 1."""
    late = loaded.pick(game, late=True)[0]
    parts: dict[str, Any] = {"bare": bare_ms, **page_parts(loaded, late), **step_parts(loaded, late)}
    parts["page_move1"] = page_parts(loaded, loaded.pick(game, late=False)[0])["page"]
    inside = ("view", "legal", "presenter", "chat", "django_board")
    parts["context_rest"] = parts["context"] - sum(parts[key] for key in inside)
    outside = ("bare", "presence", "match", "context", "templates", "gzip")
    parts["other"] = parts["page"] - sum(parts[key] for key in outside)
    parts["sql"] = [short_sql(sql) for sql in parts["sql"]]
    parts["drawing"] = sum(parts[key] for key in ("view", "legal", "presenter", "templates", "gzip"))
    return {key: round(value, 2) if isinstance(value, float) else value for key, value in parts.items()}


def breakdowns(loaded: Loaded) -> dict[str, dict[str, Any]]:
    """breakdown() of every game, as the player to act."""
    first = loaded.pick(MOVE_GAME, late=False)[0]
    bare_client = player_client(loaded, loaded.to_act_user[first])
    bare_ms = median_ms(lambda: bare_client.get("/bench/bare/", HTTP_ACCEPT_ENCODING="gzip"))
    result: dict[str, dict[str, Any]] = {}
    for game in PLAYERS:
        try:
            result[game] = breakdown(loaded, game, bare_ms)
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            result[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
    return result


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


def plain(body: bytes) -> bytes:
    """A response body as HTML: every request asks for gzip (as browsers do)."""
    return gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body


def fetch_csrf(port: int, loaded: Loaded, user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """Per user: (csrftoken cookie, page token), from a Solitaire Chess board page as a browser gets
    them. A user whose page fails gets none (their moves are not sent); the first failure is printed."""
    match_of = {}
    for match_id, game, users in zip(loaded.match_ids, loaded.games, loaded.seat_users):
        for user_id in users:
            if game == MOVE_GAME:
                match_of.setdefault(user_id, match_id)
    tokens, failure = {}, ""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for user_id in sorted(user_ids):
        conn.request("GET", f"/matches/{match_of[user_id]}/", headers={"Cookie": cookie(loaded.sessions[user_id])})
        response = conn.getresponse()
        body = response.read().decode(errors="replace")
        set_cookie = " ".join(response.headers.get_all("Set-Cookie") or [])
        csrf_cookie = re.search(r"csrftoken=([A-Za-z0-9]+)", set_cookie)
        page_token = re.search(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"', body)
        if response.status == 200 and csrf_cookie and page_token:
            tokens[user_id] = (csrf_cookie.group(1), page_token.group(1))
        else:
            failure = failure or f"user {user_id}: status {response.status}: {body[:200]!r}"
    conn.close()
    if failure:
        print(f"  WARNING: no CSRF token for {len(user_ids) - len(tokens)} users, first: {failure}", flush=True)
    return tokens


STYLESHEET_LINK = re.compile(rb'<link\b[^>]*\brel="stylesheet"[^>]*>')


def served_page(port: int, loaded: Loaded, index: int) -> dict[str, Any]:
    """One board page as served to a browser asking for gzip: its sizes, encoding, stylesheets."""
    headers = {"Cookie": cookie(loaded.sessions[loaded.to_act_user[index]]), "Accept-Encoding": "gzip"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/matches/{loaded.match_ids[index]}/", headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"status {response.status}: {plain(body)[:200]!r}")
    html = plain(body)
    links = [link for link in STYLESHEET_LINK.findall(html) if b"css/site." not in link]
    return {
        "kb": len(body) / 1024,
        "raw_kb": len(html) / 1024,
        "compressed": (response.getheader("Content-Encoding") or "") in ("gzip", "br"),
        "stylesheets": len(links),
    }


def served_pages(port: int, loaded: Loaded) -> dict[str, dict[str, Any]]:
    """Per game, over SIZE_SAMPLE late matches: the largest page, whether all came compressed, and
    the stylesheet links besides css/site.css (the most of any page)."""
    figures: dict[str, dict[str, Any]] = {}
    for game in PLAYERS:
        try:
            pages = [served_page(port, loaded, i) for i in loaded.pick(game, late=True)[:SIZE_SAMPLE]]
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            figures[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
            continue
        figures[game] = {
            "kb": round(max(p["kb"] for p in pages), 1),
            "raw_kb": round(max(p["raw_kb"] for p in pages), 1),
            "served_compressed": all(p["compressed"] for p in pages),
            "stylesheets": max(p["stylesheets"] for p in pages),
        }
    return figures


def css_imports() -> list[str]:
    """Stylesheets under static/css that load another through @import."""
    return [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "static" / "css").rglob("*.css"))
        if "@import" in path.read_text(errors="replace")
    ]


def spread(requests: list[Req], threads: int) -> list[Source]:
    return [Cycle(requests, offset=len(requests) * t // threads) for t in range(threads)]


def is_board(status: int, body: bytes) -> bool:
    return status == 200 and b'id="board"' in plain(body)


def is_moved(status: int, body: bytes) -> bool:
    """The move's answer is 200 with the new board, or 400/403/409 with the error shown (role="alert")."""
    return status == 200 and b'role="alert"' not in plain(body)


def endpoints_for(port: int, loaded: Loaded, opts: Options) -> dict[str, tuple[list[Source], Any]]:
    """name -> (sources, check). Sources keep their place between rounds (move chains go on)."""
    order = list(range(len(loaded.match_ids)))
    random.Random(7).shuffle(order)  # new and late matches mixed, users spread
    # Moves go to half of the Solitaire Chess matches; board pages and polls to the others: a moved
    # match has a new revision (its poll would get the board, not 204) and a new player to act.
    movable = [i for i in order if loaded.games[i] == MOVE_GAME]
    moving = movable[len(movable) // 2 :]
    moving_set = set(moving)
    still = [i for i in order if i not in moving_set]

    def as_player(i: int) -> dict[str, str]:
        return {"Cookie": cookie(loaded.sessions[loaded.to_act_user[i]]), "Accept-Encoding": "gzip"}

    def is_bare(status: int, body: bytes) -> bool:
        return status == 200 and body == b"ok"

    endpoints: dict[str, tuple[list[Source], Any]] = {}
    # Baseline: the same logged-in players, so the session and user lookups that every page pays
    # (UserTimezoneMiddleware reads request.user) are in the baseline, not in the ratios.
    bare = [Req("GET", "/bench/bare/", as_player(i)) for i in order]
    endpoints["bare"] = (spread(bare, opts.threads), is_bare)
    endpoints["bare_anon"] = (spread([Req("GET", "/bench/bare/", {})], opts.threads), is_bare)
    # Each game's full board page in its heaviest state, as the player to act opens it.
    for game in PLAYERS:
        board = [
            Req("GET", f"/matches/{loaded.match_ids[i]}/", as_player(i))
            for i in still
            if loaded.games[i] == game and loaded.late[i]
        ]
        endpoints[f"board_{underscored(game)}"] = (spread(board, opts.threads), is_board)
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
    # Moves as the board's form sends them (hx-post), each legal at its version, by the seat to act.
    tokens = fetch_csrf(port, loaded, {user_id for i in moving for user_id, _, _ in loaded.chains[i]})
    chains = [move_requests(loaded, i, tokens) for i in moving]
    endpoints["move"] = ([Chains(chains[t :: opts.threads]) for t in range(opts.threads)], is_moved)
    return endpoints


def run_all_loads(port: int, loaded: Loaded, opts: Options, cpu: ServerCpu) -> dict[str, LoadResult]:
    """Warm every endpoint up, then measure them in turns, ROUNDS times each, and add up.

    Taking turns spreads any change in the machine's other load over all endpoints alike, so the
    ratios to the baseline stay fair on a shared machine."""
    endpoints = endpoints_for(port, loaded, opts)
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
        if user_id not in tokens:
            break  # the chain cannot go on without this player
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
            "Accept-Encoding": "gzip",
        }
        requests.append(
            Req("POST", f"/matches/{loaded.match_ids[i]}/move/", headers, urllib.parse.urlencode(form).encode())
        )
    return requests


# --- the report ---------------------------------------------------------------------------------


def game_name(game: str) -> str:
    from games.engines.registry import GAMES

    return GAMES.get(game, game)


def label_of(name: str) -> str:
    labels = {
        "bare": "bare view /bench/bare/ (logged in)",
        "bare_anon": "bare view, anonymous (info)",
        "poll": "idle poll (HX, since=rev: 204)",
        "move": "move POST (HX, Solitaire Chess)",
    }
    boards = {f"board_{underscored(game)}": f"board: {game_name(game)}" for game in PLAYERS}
    return {**labels, **boards}.get(name, name)


def print_load_table(results: dict[str, LoadResult], queries: dict[str, Any]) -> None:
    base, base_cpu = results["bare"].rps or 1e-9, results["bare"].server_cpu_ms
    header = f"{'endpoint':36} {'ok':>6} {'failed':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'vs bare':>7}"
    header += f" {'CPU ms':>7} {'vs bare':>7} {'queries':>7}"
    print(header)
    print("-" * len(header))
    for name, result in results.items():
        q = queries.get(name, "")
        if name.startswith("board_"):
            q = next((v.get("late", "") for g, v in queries["boards"].items() if name == f"board_{underscored(g)}"), "")
        cpu_ms = result.server_cpu_ms
        cpu_ratio = f"{base_cpu / cpu_ms:7.0%}" if cpu_ms else f"{'-':>7}"
        print(
            f"{label_of(name):36} {result.ok:6d} {result.failed:6d} {result.rps:7.1f} {result.percentile_ms(0.5):7.1f} "
            f"{result.percentile_ms(0.99):7.1f} {result.rps / base:7.0%} {cpu_ms:7.2f} {cpu_ratio} {q!s:>7}"
        )
    print(
        "(req/s and latencies as the client saw them; CPU ms: gunicorn workers plus PostgreSQL backends per "
        "request; its 'vs bare' is the throughput ratio the CPU cost predicts, little moved by other programs)"
    )
    for name, result in results.items():
        if result.failed:
            print(f"  {name}: {result.failed} failed requests; first: {result.first_failure}")
        if result.exhausted:
            print(f"  {name}: ran out of prepared requests after {result.seconds:.1f} s")


def add_ceilings(parts: dict[str, dict[str, Any]], bare_cpu_ms: float) -> None:
    """The most each board page's ratio could be if all its data came free: the server's CPU for the
    bare view, plus drawing the board (engine view, legal moves, presenter, Jinja page, gzip)."""
    for part in parts.values():
        if "drawing" in part and bare_cpu_ms:
            part["ceiling"] = round(bare_cpu_ms / (bare_cpu_ms + part["drawing"]), 3)


def print_breakdown(parts: dict[str, dict[str, Any]]) -> None:
    print(
        "Where a late board page's time goes (in-process, one thread, median CPU ms of the Python side; each "
        "step timed alone on prepared input; context = player_view and the chat, its rest: its queries (chat; "
        "history where one), ORM, clocks; other: middleware, view code, Django's response; DB: the queries' wall time; "
        "with its data free: the ratio if the server paid only the bare view's CPU and drawing the board):"
    )
    for game, p in parts.items():
        if "error" in p:
            print(f"  {game_name(game)}: ERROR {p['error']}")
            continue
        django_board = f", Django board {p['django_board']:.1f}" if p["django_board"] else ""
        print(
            f"  {game_name(game)}: page {p['page']:.1f} (at move 1: {p['page_move1']:.1f}) = bare {p['bare']:.1f}"
            f" + presence {p['presence']:.1f} + match {p['match']:.1f} + context {p['context']:.1f} [view "
            f"{p['view']:.1f}, legal {p['legal']:.1f}, presenter {p['presenter']:.1f}, chat {p['chat']:.1f}"
            f"{django_board}, rest {p['context_rest']:.1f}] + Jinja page {p['templates']:.1f} [frame "
            f"{p['frame']:.1f}] + gzip {p['gzip']:.1f} + other {p['other']:.1f}; {p['queries']} queries, "
            f"DB {p['db']:.1f}" + (f"; with its data free: at most {p['ceiling']:.0%}" if "ceiling" in p else "")
        )
    sql = next((p["sql"] for p in parts.values() if "sql" in p), [])
    print(f"  The queries of a board page: {', '.join(sql)}")


def print_move_queries(queries: dict[str, Any]) -> None:
    print(f"The queries of a move POST ({queries['move']}): {', '.join(queries['move_sql'])}")


def targets(
    ratios: dict[str, float], by_cpu: Callable[[str], str], queries: dict[str, Any], pages: dict[str, Any]
) -> list[tuple[str, bool, str]]:
    """(label, met, figure) for each target."""
    rows = []
    for game in PLAYERS:
        key = f"board_{underscored(game)}"
        label = f"{game_name(game)} board page >= {BOARD_TARGET:.0%} of baseline (guard)"
        rows.append((label, ratios[key] >= BOARD_TARGET, by_cpu(key)))
    label = f"move throughput >= {MOVE_TARGET:.0%} of baseline (guard)"
    rows.append((label, ratios["move"] >= MOVE_TARGET, by_cpu("move")))
    label = f"idle poll throughput >= {POLL_TARGET:.0%} of baseline (guard)"
    rows.append((label, ratios["poll"] >= POLL_TARGET, by_cpu("poll")))
    for game, counts in queries["boards"].items():
        label = f"{game_name(game)}: <= {MAX_BOARD_QUERIES} queries per board page, the same at move 1 and late"
        if "error" in counts:
            rows.append((label, False, counts["error"]))
            continue
        met = max(counts.values()) <= MAX_BOARD_QUERIES and len(set(counts.values())) == 1
        rows.append((label, met, ", ".join(f"{k}: {v}" for k, v in counts.items())))
    for game, page in pages.items():
        label = f"{game_name(game)}: <= {MAX_BOARD_KB:g} KB compressed, served compressed"
        if "error" in page:
            rows.append((label, False, page["error"]))
            continue
        met = page["kb"] <= MAX_BOARD_KB and page["served_compressed"]
        encoding = "gzip" if page["served_compressed"] else "NOT compressed"
        rows.append((label, met, f"{page['kb']:.1f} KB as served ({encoding}), {page['raw_kb']:.1f} KB of HTML"))
    imports = css_imports()
    rows.append(("no @import in static/css", not imports, ", ".join(imports) or "none"))
    links = {game: page.get("stylesheets") for game, page in pages.items()}
    rows.append(
        (
            "one stylesheet link per board page besides css/site.css",
            all(n == 1 for n in links.values()),
            ", ".join(f"{game_name(g)}: {n}" for g, n in links.items()),
        )
    )
    return rows


def print_targets(rows: list[tuple[str, bool, str]]) -> list[str]:
    print()
    print("Targets:")
    for label, met, figure in rows:
        print(f"  {'MET    ' if met else 'NOT MET'}  {label}: {figure}")
    missed = [label for label, met, _ in rows if not met]
    if missed:
        print(f"  {len(missed)} target(s) not met (a measurement, not a test: exit status stays 0).")
    else:
        print("  All targets met.")
    return missed


def report(
    results: dict[str, LoadResult],
    queries: dict[str, Any],
    parts: dict[str, dict[str, Any]],
    pages: dict[str, dict[str, Any]],
    loaded: Loaded,
    opts: Options,
    load_avg: tuple[float, float],
) -> dict[str, Any]:
    base, base_cpu = results["bare"].rps or 1e-9, results["bare"].server_cpu_ms
    ratios = {name: result.rps / base for name, result in results.items()}

    def by_cpu(name: str) -> str:
        cpu_ms, failed = results[name].server_cpu_ms, results[name].failed
        text = f"{ratios[name]:.0%}" + (f" (by server CPU: {base_cpu / cpu_ms:.0%})" if cpu_ms else "")
        return text + (f", {failed} failed requests" if failed else "")

    late = {game: sorted(loaded.history[i] for i in loaded.pick(game, late=True)) for game in PLAYERS}
    print()
    print(
        f"Web benchmark: gunicorn -w {opts.workers} (sync) on PostgreSQL, DEBUG=false, {opts.threads} client "
        f"threads, {opts.seconds:g} s per endpoint in {ROUNDS} interleaved rounds after {opts.warmup:g} s warm-up, "
        f"{len(loaded.match_ids)} active matches, half at move 1, half late; moves played in the late ones: "
        + ", ".join(f"{game_name(g)} ({PLAYERS[g]} seats) {m[0]}-{m[-1]}" for g, m in late.items() if m)
    )
    print_load_table(results, queries)
    cores = os.cpu_count() or 1
    print(f"Machine load average before/after the load: {load_avg[0]:.1f} / {load_avg[1]:.1f} on {cores} cores", end="")
    print(" - busy: figures are noisy" if max(load_avg) > cores else "")
    add_ceilings(parts, base_cpu)
    print_breakdown(parts)
    print_move_queries(queries)
    missed = print_targets(targets(ratios, by_cpu, queries, pages))
    return figures_json(results, ratios, queries, parts, pages, missed)


def figures_json(
    results: dict[str, LoadResult],
    ratios: dict[str, float],
    queries: dict[str, Any],
    parts: dict[str, dict[str, Any]],
    pages: dict[str, dict[str, Any]],
    missed: list[str],
) -> dict[str, Any]:
    counts = [n for c in queries["boards"].values() if "error" not in c for n in c.values()]
    sizes = [page["kb"] for page in pages.values() if "error" not in page]
    figures: dict[str, Any] = {
        "move_ratio": round(ratios["move"], 3),
        "poll_ratio": round(ratios["poll"], 3),
        "queries_max": max(counts) if counts else None,
        "board_kb_max": max(sizes) if sizes else None,
        "queries_bare": queries["bare"],
        "queries_poll": queries["poll"],
        "queries_move_post": queries["move"],
        "css_imports": css_imports(),
    }
    for game in PLAYERS:
        slug = underscored(game)
        figures[f"board_ratio_{slug}"] = round(ratios[f"board_{slug}"], 3)
        figures[f"queries_{slug}"] = queries["boards"][game]
        figures[f"page_{slug}"] = pages[game]
        figures[f"breakdown_ms_{slug}"] = parts[game]
    for name, result in results.items():
        figures[f"{name}_rps"] = round(result.rps, 1)
        figures[f"{name}_p50_ms"] = round(result.percentile_ms(0.5), 2)
        figures[f"{name}_p99_ms"] = round(result.percentile_ms(0.99), 2)
        figures[f"{name}_cpu_ms"] = round(result.server_cpu_ms, 2)
        figures[f"{name}_failed"] = result.failed
    figures["moves_ok"] = results["move"].ok
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
        games, probes_200, probe_move = make_games(opts.matches, seed=20240601)
        preparing.join()
        if errors:
            raise RuntimeError(f"migrate/collectstatic failed: {errors[0]}")

        os.environ.update(env)
        import django

        django.setup()
        print(f"Loading users, sessions, matches and moves ({time.monotonic() - started:.0f} s so far) ...", flush=True)
        loaded = load_data(games, probes_200, probe_move, opts.users)
        print(
            f"Counting queries, timing board pages in-process ({time.monotonic() - started:.0f} s so far) ...",
            flush=True,
        )
        queries = count_queries(loaded)
        parts = breakdowns(loaded)
        from django.db import connections

        connections.close_all()

        port = free_port()
        print(f"Starting gunicorn on 127.0.0.1:{port} ({time.monotonic() - started:.0f} s so far) ...", flush=True)
        process = start_gunicorn(env, port, opts.workers, var_dir / "gunicorn.log")
        pages = served_pages(port, loaded)
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
        figures = report(results, queries, parts, pages, loaded, opts, load_avg)
        print(f"(web benchmark took {time.monotonic() - started:.0f} s)")
        return figures
    finally:
        stop_gunicorn(process)
        shutil.rmtree(var_dir, ignore_errors=True)
