"""A million matches: build a PostgreSQL database with years of history, then measure.

`make bench-scale` (python bench/scale.py) builds two databases from one migrated empty one
(dizzy_scale_empty, used as a template): `dizzy_scale_small` at --small-scale (0.001: 1,000 finished
matches) and `dizzy_scale` at --scale (1.0: 100,000 users, 1,000,000 finished and 50,000 running
matches), then serves each through gunicorn with production settings and prints p50/p95 per page,
the minute sweep, the table sizes and the ratio full/small.

The history is made of a few hundred real games per run played by the engines' bots
(games/engines/playout.py), replayed under new ids: every stored state is the engine's own, reached
by legal moves from the match's seed, and every Move row is such a move with its engine log. Ratings
are the site's own (ratings.actions: OpenSkill Plackett-Luce, teams_and_ranks) computed in match
order. Rows go in by COPY (psycopg 3) with foreign-key triggers off for the loading session
(session_replication_role = replica), so the generator itself keeps every reference valid
(tests/test_scale_generator.py checks a sample).

Moves: running matches keep all their moves as Move rows; every finished match has its moves as the
site keeps them an hour after the end, compacted into one MoveArchive row (games.actions.archive).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import queue
import random
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
# SCALE_DB_PREFIX: another prefix lets a second checkout build its own databases beside these.
DB_PREFIX = os.environ.get("SCALE_DB_PREFIX", "dizzy_scale")
EMPTY_DB = f"{DB_PREFIX}_empty"

# Full size (scale 1.0), as wanted.
USERS = 100_000
FINISHED = 1_000_000
RUNNING = 50_000
OPEN = 2_000
HEAVY_FINISHED = 3_000
HEAVY_RUNNING = 200
HEAVY_NOTIFICATIONS = 20_000
# The heavy player has at least a full page of every list on any database (20 a dashboard list, 100
# an API page, 50 an inbox page), so that small and full draw the same rows and their ratio shows
# what the history adds, not the page's rows (60 against 5 before).
HEAVY_LEAST_FINISHED = 120
HEAVY_LEAST_RUNNING = 50
HEAVY_LEAST_NOTIFICATIONS = 200
# Players per match as the templates are played (the site allows more at some games).
PLAYERS = {"solitaire-chess": 2, "doubting-flower-field": 2, "dizzy-duo-battle": 2, "lizzy-ghosties": 4}
BOT_SHARE = 0.1  # matches with one bot seat (rated in the bots pool)
PUSH_EVERY = 10  # one user in ten has a push subscription
HISTORY_TAIL = 30  # games.models.HISTORY_TAIL
NOW = datetime.now(UTC).replace(microsecond=0)
YEARS = 3
ADMIN_ID, HEAVY_ID = 1, 2
HEAVY_NAME = "heavy"


def db_url(name: str) -> str:
    parsed = urllib.parse.urlparse(PG_ADMIN_URL)
    return parsed._replace(path="/" + name).geturl()


# --- templates: real games played by the bots ---------------------------------------------------


@dataclass
class Template:
    game: str
    players: int
    seed: int
    options_json: str
    steps: list[tuple[int, str, str]]  # (seat, payload json, log json) per move
    tail_entries: list[dict[str, Any]]  # {"number", "seat", "log"} of every move
    final_state_json: str
    result: dict[str, Any]
    reason: str
    reason_words_json: str
    cuts: list[tuple[int, str, list[int]]] = field(default_factory=list)  # (version, state json, to act)


def play_templates(per_game: int, seed: int) -> dict[str, list[Template]]:
    from games.engines.playout import play
    from games.engines.registry import get_engine

    rng = random.Random(seed)
    templates: dict[str, list[Template]] = {}
    for game, players in PLAYERS.items():
        engine = get_engine(game)
        options = engine.parse_options({}, players)
        templates[game] = []
        for _ in range(per_game):
            game_seed = rng.randrange(1, 2**31)
            record = play(engine, players, options, game_seed, check=False)
            templates[game].append(template_of(engine, players, options, game_seed, record.moves, rng))
    return templates


def cached_templates(per_game: int, seed: int) -> dict[str, list[Template]]:
    """The templates of (per_game, seed), kept under var/ between runs: the engines decide them alone."""
    path = REPO / "var" / f"scale-templates-{per_game}-{seed}.pickle"
    if path.exists():  # plain dicts: the script runs as __main__ or as bench.scale
        return {game: [Template(**fields) for fields in kept] for game, kept in pickle.loads(path.read_bytes()).items()}
    templates = play_templates(per_game, seed)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(pickle.dumps({game: [vars(t) for t in kept] for game, kept in templates.items()}))
    return templates


def template_of(engine, players: int, options: dict, game_seed: int, moves, rng: random.Random) -> Template:
    """Replay the game once to keep each move's log and a few states of running matches."""
    state = engine.new_state(players, options, game_seed)
    cut_at = set(rng.sample(range(1, len(moves)), k=min(4, len(moves) - 1))) if len(moves) > 1 else set()
    steps, tail, cuts = [], [], []
    for number, (seat, move) in enumerate(moves, start=1):
        state, entries = engine.apply(state, seat, move)
        log_json = json.dumps(entries)
        steps.append((seat, json.dumps(move), log_json))
        tail.append({"number": number, "seat": seat, "log": entries})
        if number in cut_at and engine.to_act(state):
            cuts.append((number, json.dumps(state), list(engine.to_act(state))))
    result = engine.result(state)
    return Template(
        game=engine.slug,
        players=players,
        seed=game_seed,
        options_json=json.dumps(options),
        steps=steps,
        tail_entries=tail,
        final_state_json=json.dumps(state),
        result=result.as_dict(),
        reason=str(result.reason),
        reason_words_json=json.dumps(result.reason_words),
        cuts=cuts,
    )


# --- the rows ------------------------------------------------------------------------------------

COLUMNS = {
    "accounts_user": "id password last_login is_superuser username first_name last_name email is_staff is_active "
    "date_joined display_name time_zone email_preferences vacation_seconds_used vacation_started vacation_year "
    "banned suspended_until profile_hidden is_bot turn_sound push_preferences language",
    "games_match": "id game options status created started ended seed state version revision result time_preset "
    "turn_seconds reserve_periods period_seconds deadline end_reason created_by_id weekend_pause "
    "spectators_read_chat rated history_tail end_reason_words abortable moves_archived",
    "games_movearchive": "match_id moves",
    "games_seat": "id number bot_level accepted to_act timeouts_in_row reserve_left match_id user_id deadline "
    "handed_to_bot paused_seconds remind_at turn_started resigned match_over",
    "games_move": "id number seat kind payload log by_bot created match_id",
    "ratings_rating": "id game pool bot_level mu sigma matches last_played user_id",
    "ratings_ratingchange": "id seat outcome mu_before sigma_before mu_after sigma_after created match_id rating_id",
    "notifications_notification": "id kind turn status attempts error created sent_at match_id recipient_id "
    "claimed_at in_digest read_at deleted_at tournament_id",
    "push_pushsubscription": "id endpoint p256dh auth label created last_used user_id",
    "push_pushdelivery": "id status attempts error created claimed_at sent_at notification_id subscription_id",
}
TABLES = list(COLUMNS)
# The big JSON columns, loaded through a stage (Builder.copy_rows).
STAGED = {"games_match": ("state", "history_tail"), "games_move": ("payload", "log"), "games_movearchive": ("moves",)}
# Match lengths per template: the moves of each (template, length, bot seats) are one archive document.
ARCHIVE_LENGTHS = 4


@dataclass
class Sizes:
    users: int
    finished: int
    running: int
    open: int
    heavy_finished: int
    heavy_running: int
    heavy_notifications: int

    @classmethod
    def at(cls, scale: float) -> Sizes:
        def n(full: int, least: int) -> int:
            return max(least, round(full * scale))

        return cls(
            users=n(USERS, 50),
            finished=n(FINISHED, 2 * HEAVY_LEAST_FINISHED),
            running=n(RUNNING, 2 * HEAVY_LEAST_RUNNING),
            open=n(OPEN, 4),
            heavy_finished=n(HEAVY_FINISHED, HEAVY_LEAST_FINISHED),
            heavy_running=n(HEAVY_RUNNING, HEAVY_LEAST_RUNNING),
            heavy_notifications=n(HEAVY_NOTIFICATIONS, HEAVY_LEAST_NOTIFICATIONS),
        )


class Builder:
    """Makes the rows in id order, in chunks, and COPYs each chunk table by table."""

    def __init__(self, conn, templates: dict[str, list[Template]], sizes: Sizes, seed: int):
        from ratings.actions import MODEL

        self.conn, self.templates, self.sizes = conn, templates, sizes
        self.rng = random.Random(seed)
        self.model = MODEL
        self.ids = {table: 0 for table in TABLES}
        self.rows: dict[str, list[tuple]] = {table: [] for table in TABLES}
        self.counts = {table: 0 for table in TABLES}
        self.copy_seconds = {table: 0.0 for table in TABLES}  # where the load's time goes
        self.ratings: dict[tuple, list] = {}  # (game, pool, user id or bot level) -> [id, mu, sigma, matches, last]
        self.subscriptions: dict[int, int] = {}  # user id -> subscription id
        self.heavy_notified = 0
        self.names: dict[int, str] = {}
        self.games = list(PLAYERS)
        self.docs: dict[str, int] = {}
        self.new_docs: list[tuple[int, str]] = []
        self.tails: dict[tuple[int, int], int] = {}
        self.archives: dict[tuple, tuple[int, timedelta]] = {}
        self.queue: queue.Queue = queue.Queue(maxsize=2)
        self.failed: list[BaseException] = []
        threading.Thread(target=self.writer, daemon=True).start()

    def next_id(self, table: str) -> int:
        self.ids[table] += 1
        return self.ids[table]

    def add(self, table: str, row: tuple) -> None:
        self.rows[table].append(row)

    def doc(self, text: str) -> int:
        """A JSON document's key in scale_json: each distinct text is parsed into jsonb once, and rows
        that repeat it (the templates' states, tails and moves) copy the parsed value (see flush)."""
        key = self.docs.get(text)
        if key is None:
            key = self.docs[text] = len(self.docs) + 1
            self.new_docs.append((key, text))
        return key

    def flush(self, wait: bool = False) -> None:
        """Hand the rows made so far to the writer thread, which COPYs them while the next chunk is
        made (PostgreSQL and Python each take about half of the time); `wait`: until it is done."""
        self.queue.put((self.new_docs, self.rows))
        self.new_docs, self.rows = [], {table: [] for table in TABLES}
        if wait:
            self.queue.join()
            if self.failed:
                raise self.failed[0]

    def writer(self) -> None:
        while True:
            docs, rows = self.queue.get()
            try:
                if not self.failed:
                    self.write(docs, rows)
            except BaseException as error:  # reported by the main thread at its next wait
                self.failed.append(error)
            finally:
                self.queue.task_done()

    def write(self, docs: list[tuple[int, str]], rows: dict[str, list[tuple]]) -> None:
        with self.conn.cursor() as cur:
            if docs:
                with cur.copy("COPY scale_json (key, doc) FROM STDIN") as copy:
                    for row in docs:
                        copy.write_row(row)
            for table in TABLES:
                if not rows[table]:
                    continue
                started = time.perf_counter()
                self.copy_rows(cur, table, rows[table])
                self.counts[table] += len(rows[table])
                self.copy_seconds[table] += time.perf_counter() - started
        self.conn.commit()

    def copy_rows(self, cur, table: str, rows: list[tuple]) -> None:
        names = COLUMNS[table].split()
        if table not in STAGED:
            with cur.copy(f"COPY {table} ({', '.join(names)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        # Parsing big JSON is what costs PostgreSQL most: rows go to a stage with document keys,
        # then INSERT ... SELECT takes the parsed documents from scale_json.
        with cur.copy(f"COPY scale_stage_{table} ({', '.join(names)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        picked = [f"d{names.index(n)}.doc" if n in STAGED[table] else f"s.{n}" for n in names]
        joins = " ".join(
            f"LEFT JOIN scale_json d{names.index(n)} ON d{names.index(n)}.key = s.{n}" for n in STAGED[table]
        )
        cur.execute(
            f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(picked)} FROM scale_stage_{table} s {joins}"
        )
        cur.execute(f"TRUNCATE scale_stage_{table}")

    def create_stages(self) -> None:
        with self.conn.cursor() as cur:
            cur.execute("CREATE UNLOGGED TABLE scale_json (key integer PRIMARY KEY, doc jsonb NOT NULL)")
            for table, columns in STAGED.items():
                cur.execute(f"CREATE UNLOGGED TABLE scale_stage_{table} AS SELECT * FROM {table} WITH NO DATA")
                for column in columns:
                    cur.execute(f"ALTER TABLE scale_stage_{table} ALTER COLUMN {column} TYPE integer USING NULL")
        self.conn.commit()

    def drop_stages(self) -> None:
        with self.conn.cursor() as cur:
            for table in ["scale_json", *(f"scale_stage_{t}" for t in STAGED)]:
                cur.execute(f"DROP TABLE {table}")
        self.conn.commit()

    # users and devices
    def users(self) -> None:
        from django.contrib.auth.hashers import make_password

        password = make_password("scale-bench-password")
        start = NOW - timedelta(days=365 * YEARS + 30)
        for uid in range(1, self.sizes.users + 1):
            name = {ADMIN_ID: "admin", HEAVY_ID: HEAVY_NAME}.get(uid, f"player{uid:06d}")
            self.names[uid] = name
            joined = start + timedelta(seconds=uid * 60)
            staff = uid == ADMIN_ID
            self.add(
                "accounts_user",
                (uid, password, None, staff, name, "", "", f"{name}@example.org", staff, True, joined, "", "UTC")
                + ("{}", 0, None, 0, False, None, False, False, False, "{}", ""),
            )
            if uid % PUSH_EVERY == 0 or uid == HEAVY_ID:
                sid = self.next_id("push_pushsubscription")
                self.subscriptions[uid] = sid
                endpoint = f"https://push.example.org/send/{uid}-{sid}"
                self.add(
                    "push_pushsubscription", (sid, endpoint, "B" * 87, "A" * 22, "Firefox on Linux", joined, None, uid)
                )
        self.ids["accounts_user"] = self.sizes.users
        self.flush(wait=True)

    def pick_users(self, count: int, heavy: bool) -> list[int]:
        chosen = [HEAVY_ID] if heavy else []
        while len(chosen) < count:
            uid = self.rng.randrange(3, self.sizes.users + 1)
            if uid not in chosen:
                chosen.append(uid)
        self.rng.shuffle(chosen)
        return chosen

    def seats_of(self, template: Template, heavy: bool, allow_bot: bool) -> list[tuple[int | None, str]]:
        """(user id, bot level) per seat: people, and now and then one bot seat (never the heavy's)."""
        users: list[int | None] = list(self.pick_users(template.players, heavy))
        levels = [""] * template.players
        if allow_bot and self.rng.random() < BOT_SHARE:
            seat = next(n for n in range(template.players - 1, -1, -1) if users[n] != HEAVY_ID)
            users[seat], levels[seat] = None, self.rng.choice(["random", "normal", "hard"])
        return list(zip(users, levels))

    def notify(self, kind: str, match_id: int, uid: int, turn: int, when: datetime, read: bool) -> None:
        nid = self.next_id("notifications_notification")
        self.add(
            "notifications_notification",
            (nid, kind, turn, "sent", 1, "", when, when, match_id, uid, when, False, when if read else None)
            + (None, None),
        )
        if uid == HEAVY_ID:
            self.heavy_notified += 1
        sid = self.subscriptions.get(uid)
        if sid is not None:
            pid = self.next_id("push_pushdelivery")
            self.add("push_pushdelivery", (pid, "sent", 1, "", when, when, when, nid, sid))

    def moves(self, match_id: int, template: Template, upto: int, start: datetime, end: datetime, bots: set) -> None:
        span = (end - start) / max(upto, 1)
        for number, (seat, payload, log) in enumerate(template.steps[:upto], start=1):
            mid = self.next_id("games_move")
            self.add(
                "games_move",
                (
                    mid,
                    number,
                    seat,
                    "move",
                    self.doc(payload),
                    self.doc(log),
                    seat in bots,
                    start + span * number,
                    match_id,
                ),
            )

    def tail_doc(self, template: Template, upto: int) -> int:
        """The key of Match.history_tail after `upto` moves: the last HISTORY_TAIL moves' logs."""
        key = (id(template), upto)
        if key not in self.tails:
            self.tails[key] = self.doc(json.dumps(template.tail_entries[max(0, upto - HISTORY_TAIL) : upto]))
        return self.tails[key]

    def archive_doc(self, template: Template, bots: set[int]) -> tuple[int, timedelta]:
        """The key of a finished match's MoveArchive.moves, and the match's length: the site's
        compacted form ([number, seat, kind, payload, log, by_bot, microseconds after the start] per move,
        the log None where it is the engine's own, games.actions.archive), one of ARCHIVE_LENGTHS per
        template and bot seats, so that each distinct document is parsed once."""
        length = self.rng.randrange(ARCHIVE_LENGTHS)
        key = (id(template), length, frozenset(bots))
        if key not in self.archives:
            hours = random.Random(f"{template.seed}-{length}").randrange(1, 24 * 20)
            span = hours * 3600 / len(template.steps)
            moves = [
                [number, seat, "move", json.loads(payload), None, seat in bots, round(span * number) * 1_000_000]
                for number, (seat, payload, _log) in enumerate(template.steps, start=1)
            ]
            self.archives[key] = (self.doc(json.dumps(moves)), timedelta(hours=hours))
        return self.archives[key]

    def match_row(self, mid: int, template: Template, status: str, created: datetime, started, ended, state):
        return [mid, template.game, template.options_json, status, created, started, ended, str(template.seed), state]

    # finished matches
    def finished(self, chunk: int) -> None:
        from games.models import fill_names

        sizes = self.sizes
        heavy_every = sizes.finished / sizes.heavy_finished
        span = timedelta(days=365 * YEARS)
        for i in range(sizes.finished):
            game = self.games[i % len(self.games)]
            template = self.templates[game][self.rng.randrange(len(self.templates[game]))]
            heavy = int(i / heavy_every) != int((i + 1) / heavy_every)
            seats = self.seats_of(template, heavy, allow_bot=True)
            mid = self.next_id("games_match")
            started = NOW - span + span * (i / sizes.finished)
            bots = {n for n, (uid, _level) in enumerate(seats) if uid is None}
            archive, length = self.archive_doc(template, bots)
            ended = started + length
            created = started - timedelta(minutes=self.rng.randrange(1, 600))
            names = {f"p{n}": self.seat_name(uid, level, n) for n, (uid, level) in enumerate(seats)}
            version = len(template.steps)
            tail = self.tail_doc(template, version)
            row = self.match_row(
                mid, template, "finished", created, started, ended, self.doc(template.final_state_json)
            )
            row += [version, version + len(seats), json.dumps(template.result), "daily", 86400, 5, 86400, None]
            row += [fill_names(template.reason, names)[:200], next(u for u, _ in seats if u), False, False, True]
            row += [tail, template.reason_words_json, True, True]
            self.add("games_match", tuple(row))
            self.add("games_movearchive", (mid, archive))
            for number, (uid, level) in enumerate(seats):
                sid = self.next_id("games_seat")
                self.add(
                    "games_seat",
                    (sid, number, level, True, False, 0, 5, mid, uid, None, False, None, None, None, False, True),
                )
            self.rate(mid, template, seats, ended)
            for uid, _level in seats:
                if uid:
                    self.notify("finished", mid, uid, version, ended, read=self.rng.random() < 0.95)
            if (i + 1) % chunk == 0:
                self.flush()
        self.flush(wait=True)

    def seat_name(self, uid: int | None, level: str, number: int) -> str:
        if uid is None:
            return f"{level.capitalize()} bot"
        return self.names[uid]

    def rate(self, mid: int, template: Template, seats: list[tuple[int | None, str]], ended: datetime) -> None:
        """The site's rating of a finished match (ratings.actions.do_rate_finished_match), in memory."""
        from ratings.actions import outcome_of, teams_and_ranks

        pool = "bots" if any(uid is None for uid, _ in seats) else "people"
        numbers = list(range(len(seats)))
        ratings = []
        for uid, level in seats:
            key = (template.game, pool, uid if uid else level)
            if key not in self.ratings:
                self.ratings[key] = [self.next_id("ratings_rating"), 25.0, 25.0 / 3, 0, None]
            ratings.append(self.ratings[key])
        teams, ranks = teams_and_ranks(template.game, template.result, numbers)
        model = self.model
        rated = model.rate(
            [[model.rating(mu=ratings[n][1], sigma=ratings[n][2]) for n in team] for team in teams], ranks=ranks
        )
        after = {n: (new.mu, new.sigma) for team, news in zip(teams, rated) for n, new in zip(team, news)}
        for n in numbers:
            rating = ratings[n]
            mu_before, sigma_before = rating[1], rating[2]
            rating[1] += after[n][0] - mu_before
            rating[2] = min(rating[2], after[n][1])
            rating[3] += 1
            rating[4] = ended
            rid = self.next_id("ratings_ratingchange")
            outcome = outcome_of(template.result, n)
            self.add(
                "ratings_ratingchange",
                (rid, n, outcome, mu_before, sigma_before, rating[1], rating[2], ended, mid, rating[0]),
            )

    def rating_rows(self) -> None:
        for (game, pool, who), (rid, mu, sigma, matches, last) in self.ratings.items():
            user, level = (who, "") if isinstance(who, int) else (None, who)
            self.add("ratings_rating", (rid, game, pool, level, mu, sigma, matches, last, user))
        self.flush(wait=True)

    # running and open matches
    def running(self, chunk: int) -> None:
        sizes = self.sizes
        heavy_every = sizes.running / sizes.heavy_running
        for i in range(sizes.running):
            game = self.games[i % len(self.games)]
            candidates = [t for t in self.templates[game] if t.cuts]
            template = candidates[self.rng.randrange(len(candidates))]
            version, state, to_act = template.cuts[self.rng.randrange(len(template.cuts))]
            heavy = int(i / heavy_every) != int((i + 1) / heavy_every)
            seats = self.seats_of(template, heavy, allow_bot=False)
            mid = self.next_id("games_match")
            started = NOW - timedelta(hours=self.rng.randrange(1, 24 * 60))
            last_move = started + (NOW - started) * self.rng.random()
            deadlines = {n: NOW + timedelta(seconds=self.rng.randrange(60, 5 * 86400)) for n in to_act}
            row = self.match_row(mid, template, "active", started - timedelta(hours=1), started, None, self.doc(state))
            row += [version, version + len(seats), None, "daily", 86400, 5, 86400, min(deadlines.values()), ""]
            row += [seats[0][0], False, False, True, self.tail_doc(template, version), "{}", True, False]
            self.add("games_match", tuple(row))
            for number, (uid, level) in enumerate(seats):
                sid = self.next_id("games_seat")
                deadline = deadlines.get(number)
                # A fifth of the turn left, never in the past: the sweep finds its steady-state work only.
                remind = deadline - (deadline - NOW) / 5 if deadline else None
                turn_started = last_move if deadline else None
                self.add(
                    "games_seat",
                    (sid, number, level, True, deadline is not None, 0, 5, mid, uid, deadline)
                    + (False, None, remind, turn_started, False, False),
                )
                if deadline is not None and uid:
                    self.notify("your_turn", mid, uid, version, last_move, read=self.rng.random() < 0.5)
            self.moves(mid, template, version, started, last_move, set())
            if (i + 1) % chunk == 0:
                self.flush()
        self.flush(wait=True)

    def records(self) -> None:
        """The players' won/lost/drawn per game (ratings_playerrecord), as the migration fills it."""
        from ratings.records import FILL_SQL

        self.conn.execute(FILL_SQL)

    def open_matches(self) -> None:
        for _ in range(self.sizes.open):
            game = self.games[self.rng.randrange(len(self.games))]
            template = self.templates[game][0]
            mid = self.next_id("games_match")
            creator = self.rng.randrange(3, self.sizes.users + 1)
            created = NOW - timedelta(minutes=self.rng.randrange(1, 60 * 24 * 7))
            row = self.match_row(mid, template, "open", created, None, None, None)
            row[7] = ""  # the seed is drawn when the match starts
            row += [
                0,
                1,
                None,
                "daily",
                86400,
                5,
                86400,
                None,
                "",
                creator,
                False,
                False,
                True,
                self.doc("[]"),
                "{}",
                True,
                False,
            ]
            self.add("games_match", tuple(row))
            for number in range(template.players):
                sid = self.next_id("games_seat")
                uid = creator if number == 0 else None
                self.add(
                    "games_seat",
                    (sid, number, "", number == 0, False, 0, 5, mid, uid, None, False, None, None, None, False, False),
                )
        self.flush(wait=True)

    def heavy_extra_notifications(self) -> None:
        """The heavy player's inbox up to its size: "your turn" rows of their matches over the years."""
        with self.conn.cursor() as cur:
            cur.execute(
                "SELECT m.id, m.version, m.started FROM games_match m JOIN games_seat s ON s.match_id = m.id "
                "WHERE s.user_id = %s AND m.status IN ('finished', 'active') ORDER BY m.id",
                [HEAVY_ID],
            )
            matches = cur.fetchall()
        need = self.sizes.heavy_notifications - self.heavy_notified
        index = 0
        while need > 0 and matches:
            mid, version, started = matches[index % len(matches)]
            turn = index // len(matches) + 1  # turns 1, 2, ... of each match in turn: unique per match
            if turn < version:
                self.notify("your_turn", mid, HEAVY_ID, turn, started + timedelta(hours=turn), read=True)
                need -= 1
            elif index > len(matches) * 1000:
                break
            index += 1
        self.flush(wait=True)


def build(name: str, scale: float, templates, seed: int) -> dict[str, Any]:
    """Recreate database `name` from the empty migrated one and fill it; returns counts and seconds."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{EMPTY_DB}"')
    sizes = Sizes.at(scale)
    with psycopg.connect(db_url(name)) as conn:
        conn.execute("SET session_replication_role = replica")  # no FK triggers while loading; ids are ours
        conn.execute("SET synchronous_commit = off")
        builder = Builder(conn, templates, sizes, seed)
        builder.create_stages()
        steps = [
            ("users", builder.users),
            ("finished", lambda: builder.finished(20_000)),
            ("ratings", builder.rating_rows),
            ("running", lambda: builder.running(5_000)),
            ("open", builder.open_matches),
            ("records", builder.records),
            ("heavy inbox", builder.heavy_extra_notifications),
        ]
        seconds = {}
        for label, step in steps:
            t = time.monotonic()
            step()
            seconds[label] = round(time.monotonic() - t, 1)
            print(f"  {name}: {label} in {seconds[label]} s ({sum(builder.counts.values()):,} rows so far)", flush=True)
        builder.drop_stages()
        for table in (t for t in TABLES if COLUMNS[t].startswith("id ")):  # the sequences go on after our ids
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST((SELECT max(id) FROM {table}), 1))"
            )
        conn.commit()
    t = time.monotonic()
    with psycopg.connect(db_url(name), autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    seconds["vacuum analyze"] = round(time.monotonic() - t, 1)
    seconds["copy per table"] = {table: round(s, 1) for table, s in builder.copy_seconds.items()}
    return {"counts": builder.counts, "seconds": seconds, "total_s": round(time.monotonic() - started, 1)}


def migrate_empty(env: dict[str, str]) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{EMPTY_DB}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{EMPTY_DB}"')
    env = {**env, "DATABASE_URL": db_url(EMPTY_DB)}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=REPO, env=env, check=True)


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")
    import django

    django.setup()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="the full database's size (1.0: a million matches)")
    parser.add_argument("--small-scale", type=float, default=0.001, help="the small one's (0.001: 1,000 matches)")
    parser.add_argument("--templates", type=int, default=75, help="real games played per game")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--build-only", action="store_true", help="build the databases, measure nothing")
    parser.add_argument("--measure-only", action="store_true", help="measure the databases built before")
    parser.add_argument("--no-small", action="store_true", help="build and measure the full one only")
    parser.add_argument("--requests", type=int, default=50, help="requests per page")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    opts = parse_args(argv)
    setup_django()
    builds = {}
    plan = [] if opts.no_small else [("small", f"{DB_PREFIX}_small", opts.small_scale)]
    plan.append(("full", DB_PREFIX, opts.scale))
    if not opts.measure_only:
        t = time.monotonic()
        migrate_empty(dict(os.environ))
        templates = cached_templates(opts.templates, opts.seed)
        print(f"Templates: {opts.templates} games per game, played and replayed in {time.monotonic() - t:.0f} s")
    for label, name, scale in [] if opts.measure_only else plan:
        builds[label] = build(name, scale, templates, opts.seed)
        print(f"Built {name} (scale {scale}) in {builds[label]['total_s']} s: {builds[label]['counts']}", flush=True)
    if opts.build_only:
        return
    from bench.scale_measure import measure_all

    measure_all({label: name for label, name, _ in plan}, opts.requests, builds)


if __name__ == "__main__":
    main()
