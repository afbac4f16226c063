"""Stage 5: the site under gunicorn (sync workers, production settings, plain http on loopback), and
the server's CPU time (the workers and the bench database's backends, from /proc)."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from bench.web.config import PG_ADMIN_URL, PG_BENCH_URL, REPO


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
