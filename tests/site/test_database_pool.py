"""DATABASE_POOL_SIZE: the ASGI processes' requests borrow PostgreSQL connections from one pool a
process instead of connecting at each request, and a request that cannot get one in time gets the
error the overload middleware answers 503."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dizzysite.netutil import port_open
from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
PG_URL = "postgres://postgres@127.0.0.1:5432/postgres"

# Ten requests one after the other, each in a thread of its own (as ASGI runs them), each closing its
# connection at its end (CONN_MAX_AGE=0): the backends' process ids they saw.
REQUESTS = """
import json, threading, django
django.setup()
from django.db import connection
pids = []
def request():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pids.append(cursor.fetchone()[0])
    connection.close()
for _ in range(10):
    thread = threading.Thread(target=request)
    thread.start()
    thread.join()
print(json.dumps(pids))
"""

# One connection held; another thread asks for one from a pool of one.
EXHAUSTED = """
import threading, django
django.setup()
from django.db import connection, OperationalError
connection.ensure_connection()
outcome = []
def request():
    try:
        connection.ensure_connection()
        outcome.append("connected")
    except OperationalError as error:
        outcome.append(type(error).__module__ + "." + type(error).__name__)
thread = threading.Thread(target=request)
thread.start()
thread.join()
print(outcome[0])
"""


@pytest.fixture
def postgres():
    require(port_open("127.0.0.1", 5432), "PostgreSQL is not running on 127.0.0.1:5432")


def run_site(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE"))}
    clean.update(env, DJANGO_SETTINGS_MODULE="dizzysite.settings", DATABASE_URL=PG_URL, DATABASE_CONN_MAX_AGE="0")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_requests_share_pooled_connections(postgres):
    pooled = json.loads(run_site(REQUESTS, DATABASE_POOL_SIZE="4"))
    unpooled = json.loads(run_site(REQUESTS))
    assert len(pooled) == len(unpooled) == 10
    assert len(set(pooled)) <= 2  # the pool's few backends served all ten
    assert len(set(unpooled)) == 10  # without the pool, a connection a request


def test_an_exhausted_pool_is_an_operational_error(postgres):
    outcome = run_site(EXHAUSTED, DATABASE_POOL_SIZE="1", DATABASE_POOL_WAIT="1")
    assert outcome == "django.db.utils.OperationalError"
