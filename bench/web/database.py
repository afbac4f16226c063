"""Stage 2: the bench database and the site's environment: production settings on the bench
database, Redis as the cache when it answers; migrate and collect static files."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.parse
from pathlib import Path

from bench.web.config import PG_ADMIN_URL, PG_BENCH_URL, REDIS_BENCH_URL, REPO


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
