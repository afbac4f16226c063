"""`make run`'s supervisor (dizzysite/supervise.py) with real processes on the embedded
defaults: a killed worker is seen by /healthz (503) and started again (200); a SIGTERM to make's
process group, as a process manager or a closed terminal sends, stops everything once."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import require
from tests.integration.conftest import ROOT, free_port, wait_for

pytestmark = pytest.mark.integration

STALE_S = 5  # the heartbeat's age that makes /healthz fail, shortened from a minute for the test
RESTART_DELAY_S = 8  # longer than STALE_S, so that the 503 is seen before the worker is back


def healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except OSError:
        return 0, {}


def started_pid(log: Path, name: str, again: bool = False) -> int | None:
    pattern = rf"\[make run\] {name} started{' again' if again else ''} \(pid (\d+)\)"
    found = re.findall(pattern, log.read_text(errors="replace"))
    return int(found[-1]) if found else None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def make_run():
    """`make run` (without its install step: this checkout is installed) in a folder of its own, on a
    free loopback port; killed at the end whatever happened."""
    require(shutil.which("make") is not None, "make is not installed")
    folder = Path(tempfile.mkdtemp(prefix="dizzy-make-run-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_", "DATABASE_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DEBUG": "true",
            "DIZZY_VAR_DIR": str(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "CACHE_URL": "",
            "HEARTBEAT_INTERVAL_SECONDS": "1",
            "HEARTBEAT_STALE_SECONDS": str(STALE_S),
        }
    )
    run_args = f"RUN_ARGS=--bind 127.0.0.1:{port} --noreload --restart-delay {RESTART_DELAY_S}"
    log = folder / "make-run.log"
    with log.open("w") as out:
        make = subprocess.Popen(
            ["make", "-o", "install", "run", run_args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    make.port, make.log = port, log
    yield make
    if make.poll() is None:
        os.killpg(make.pid, signal.SIGKILL)
        make.wait(10)
    print(f"--- make run's output (end)\n{log.read_text(errors='replace')[-4000:]}")
    shutil.rmtree(folder, ignore_errors=True)


def test_a_killed_worker_makes_healthz_fail_and_comes_back(make_run):
    port, log = make_run.port, make_run.log
    wait_for(lambda: healthz(port)[0] == 200, 120, 0.5, "make run to be healthy")
    worker = started_pid(log, "worker")
    assert worker is not None

    os.killpg(worker, signal.SIGKILL)  # the worker and its pool, as the OOM killer or a crash would
    status, body = wait_for(lambda: (r := healthz(port))[0] == 503 and r, STALE_S + RESTART_DELAY_S, 0.2, "a 503")
    assert status == 503
    assert [p for p in body["problems"] if p.startswith("The Celery worker last reported")], body
    wait_for(lambda: started_pid(log, "worker", again=True), 60, 0.2, "the worker to be started again")
    assert "[make run] worker exited (code -9); starting it again" in log.read_text()
    assert started_pid(log, "worker", again=True) != worker
    wait_for(lambda: healthz(port)[0] == 200, 60, 0.5, "healthz to be 200 again")


def test_a_sigterm_to_the_process_group_stops_everything_once(make_run):
    port, log = make_run.port, make_run.log
    wait_for(lambda: healthz(port)[0] == 200, 120, 0.5, "make run to be healthy")
    children = [started_pid(log, name) for name in ("web", "worker", "beat")]
    assert None not in children

    os.killpg(make_run.pid, signal.SIGTERM)  # make, the supervisor: all that shares the terminal
    make_run.wait(60)
    text = log.read_text(errors="replace")
    assert text.count("[make run] stopping everything (SIGTERM)") == 1
    assert text.count("[make run] stopped") == 1
    assert text.count("Warm shutdown") == 1  # the worker's, once (it was printed thousands of times)
    assert "RecursionError" not in text and "exited (code" not in text
    assert [pid for pid in children if alive(pid)] == []
    assert healthz(port)[0] == 0  # nothing answers on the port any more
