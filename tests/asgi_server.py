"""A real uvicorn serving dizzysite.asgi on a loopback port, on the test database (the live tests)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from dizzysite.netutil import free_port, port_open
from tests.conftest import require
from tests.integration.conftest import ROOT, wait_for


def database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        require(False, "the live integration tests need PostgreSQL (the server is another process)")
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_server(
    extra_env: dict[str, str], heartbeat_s: int, graceful_s: int = 1
) -> tuple[subprocess.Popen, int, Path]:
    folder = Path(tempfile.mkdtemp(prefix="dizzy-live-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_", "DATABASE_", "LIVE_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DEBUG": "true",
            "DATABASE_URL": database_url(),
            "DATABASE_CONN_MAX_AGE": "0",
            "DIZZY_VAR_DIR": str(folder),
            "CACHE_URL": "",
            "LIVE_HEARTBEAT_SECONDS": str(heartbeat_s),
            **extra_env,
        }
    )
    log = folder / "uvicorn.log"
    command = [sys.executable, "-m", "uvicorn", "dizzysite.asgi:application", "--host", "127.0.0.1"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--timeout-graceful-shutdown", str(graceful_s)],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for(lambda: port_open("127.0.0.1", port), 60, 0.2, "uvicorn to listen")
    return process, port, folder


def stop_server(process: subprocess.Popen, folder: Path) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
    print(f"--- uvicorn's log (end)\n{(folder / 'uvicorn.log').read_text(errors='replace')[-3000:]}")
    shutil.rmtree(folder, ignore_errors=True)


def session_cookie(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value
