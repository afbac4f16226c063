"""The queries of a page and the plans of its slowest: what bench/RESULTS.md's "Scale" plans are.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dizzy_scale \\
        .venv/bin/python bench/scale_explain.py /inbox/ /players/heavy/ --user heavy --plans 2

Each path is requested twice in-process (Django's test client, signed in as --user) and the second
time's queries are listed with their times; the slowest --plans are run again under
EXPLAIN (ANALYZE, BUFFERS). Read-only: EXPLAIN ANALYZE runs only SELECTs (others are listed, not run).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--user", default="heavy")
    parser.add_argument("--plans", type=int, default=2, help="the slowest queries of each page to explain")
    opts = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(username=opts.user))
    for path in opts.paths:
        client.get(path)  # warm: caches, the session, the connection
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(path)
            seconds = time.perf_counter() - started
        queries = captured.captured_queries
        print(f"\n== {path}: {response.status_code}, {seconds * 1000:.1f} ms, {len(queries)} queries")
        slowest = sorted(queries, key=lambda q: -float(q["time"]))
        for query in slowest:
            print(f"  {float(query['time']) * 1000:6.1f} ms  {query['sql'][:160]}")
        for query in [q for q in slowest if q["sql"].lstrip().upper().startswith("SELECT")][: opts.plans]:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + query["sql"])
                plan = "\n".join("    " + row[0] for row in cursor.fetchall())
            print(f"\n  {query['sql'][:300]}\n{plan}")


if __name__ == "__main__":
    main()
