"""Tournaments: a championship season of 64 divisions starts, with all its matches created, in one
worker task with a bounded number of queries.

    python bench/bench_championship_season.py [--sizes 1,8,64] [--division-size 8] [--game solitaire-chess]

For each number of divisions this signs up that many divisions' worth of players (bulk inserts) and
runs the task's action (tournaments.championship_actions.do_start_season_if_due), counting its
queries and timing it. Each size runs inside a transaction that is rolled back, so nothing is sent
(no email, push or bot move: those go on commit) and the next size starts from an empty table.

On PostgreSQL (the production database): a throwaway database `dizzybench_season_<pid>` on
BENCH_ADMIN_URL's server (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
Exit 1 when the queries grow with the divisions (the target) or it could not measure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

ADMIN_URL = os.environ.get("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")


class Rollback(Exception):
    """Raised to undo one size's season once measured."""


def database_url(name: str) -> str:
    parts = urllib.parse.urlparse(ADMIN_URL)
    return urllib.parse.urlunparse(parts._replace(path=f"/{name}"))


def setup_django(name: str) -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DEBUG": "true",
            "DATABASE_URL": database_url(name),
            "CELERY_TASK_ALWAYS_EAGER": "false",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def drop_database(name: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(divisions: int, division_size: int, game: str) -> tuple[int, int, float]:
    """(queries, matches, seconds) of starting a season of `divisions` full divisions."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games.models import Match
    from tournaments.championship_actions import do_start_season_if_due
    from tournaments.models import Championship, ChampionshipMember

    result: tuple[int, int, float] = (0, 0, 0.0)
    try:
        with transaction.atomic():
            admin = User.objects.create(username="bench-admin", email="admin@example.com", is_staff=True)
            championship = Championship.objects.create(game=game, division_size=division_size, organiser=admin)
            players = User.objects.bulk_create(
                User(username=f"bench{n}", email=f"bench{n}@example.com") for n in range(divisions * division_size)
            )
            ChampionshipMember.objects.bulk_create(
                ChampionshipMember(championship=championship, user=p) for p in players
            )
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                outcome = do_start_season_if_due(championship.pk)
                took = time.perf_counter() - started
            assert outcome == "started", outcome
            assert championship.seasons.get().divisions.count() == divisions
            result = (len(queries), Match.objects.count(), took)
            raise Rollback
    except Rollback:
        pass
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1,8,64", help="numbers of divisions, comma separated")
    parser.add_argument("--division-size", type=int, default=8)
    parser.add_argument("--game", default="solitaire-chess")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    name = f"dizzybench_season_{os.getpid()}"
    try:
        setup_django(name)
    except Exception as error:  # no PostgreSQL here: nothing measured
        print(f"could not measure: {error}")
        sys.exit(1)
    try:
        counts = []
        for divisions in sizes:
            queries, matches, took = measure(divisions, args.division_size, args.game)
            counts.append(queries)
            print(f"{divisions} divisions: {matches} matches started in {queries} queries, {took:.2f} s", flush=True)
    finally:
        drop_database(name)
    if len(set(counts)) != 1:
        print(f"failed: the queries grow with the divisions ({counts})")
        sys.exit(1)
    print(f"bounded: {counts[0]} queries whatever the number of divisions")


if __name__ == "__main__":
    main()
