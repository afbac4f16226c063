"""`make run`'s supervisor: the site, a Celery worker and beat, kept running, stopped once.

The site is Django's ASGI application under uvicorn (the live streams are async views),
with uvicorn's reloader unless --noreload; WhiteNoise serves the static files, as before.

    python -m dizzysite.supervise [--bind 127.0.0.1:8000] [--noreload] [--restart-delay 1]

Each process runs in its own session, so a Ctrl-C or a SIGTERM to the terminal's process group reaches
only this supervisor (and make). A process that exits while the supervisor is not stopping is started
again after a delay, which doubles while it keeps dying within a minute of its start (at most 30 s),
and the output says so. SIGINT, SIGTERM or SIGHUP stop everything once: each process's group gets one
SIGTERM (the worker finishes its running tasks: a warm shutdown), and whatever is left after
STOP_TIMEOUT_S gets SIGKILL; signals that come while stopping change nothing.

The shell's `trap 'kill 0' INT TERM EXIT` that this replaces re-entered itself on a SIGTERM to the
process group: the worker received SIGTERM again and again, printed "Warm shutdown" thousands of times
and died of a RecursionError.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STOP_TIMEOUT_S = 20.0  # a warm shutdown waits for running tasks; a hard bot thinks about a second
MAX_RESTART_DELAY_S = 30.0
STEADY_S = 60.0  # a process that ran this long is healthy again: its restart delay starts over
POLL_S = 0.2


def say(message: str) -> None:
    print(f"[make run] {message}", flush=True)


def die_with_parent() -> None:
    """In each child before exec (Linux): SIGTERM when the supervisor dies, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Child:
    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    delay_s: float = 1.0
    restart_at: float | None = None  # when it is to be started again, after it exited
    starts: int = field(default=0)
    # SIGTERM to the whole group (uvicorn: its reloader and the server), or to the process alone
    # (the worker: it stops its pool processes itself once their tasks are done, a warm shutdown).
    stop_group: bool = False
    env: dict[str, str] = field(default_factory=dict)  # set over the supervisor's own environment

    def start(self) -> None:
        env = {**os.environ, **self.env}
        self.process = subprocess.Popen(
            self.command, cwd=ROOT, env=env, start_new_session=True, preexec_fn=die_with_parent
        )
        self.started_at = time.monotonic()
        self.restart_at = None
        self.starts += 1
        again = " again" if self.starts > 1 else ""
        say(f"{self.name} started{again} (pid {self.process.pid})")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ask_to_stop(self) -> None:
        if self.stop_group:
            self.signal_group(signal.SIGTERM)
        elif self.process is not None:
            self.process.send_signal(signal.SIGTERM)

    def signal_group(self, sig: int) -> None:
        """`sig` to the child's whole group (the worker's pool processes, uvicorn's reloader child)."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


class Supervisor:
    def __init__(self, children: list[Child], restart_delay_s: float) -> None:
        self.children = children
        self.restart_delay_s = restart_delay_s
        self.stop_signal: int | None = None

    def ask_to_stop(self, signum: int, frame: object) -> None:
        # Only a flag: the main loop stops everything once, however many signals come.
        if self.stop_signal is None:
            self.stop_signal = signum

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self.ask_to_stop)
        for child in self.children:
            child.delay_s = self.restart_delay_s
            child.start()
        while self.stop_signal is None:
            self.look_after_children()
            time.sleep(POLL_S)
        return self.stop()

    def look_after_children(self) -> None:
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    child.start()
                continue
            if child.running():
                if now - child.started_at > STEADY_S:
                    child.delay_s = self.restart_delay_s
                continue
            code = child.process.returncode if child.process else None
            child.signal_group(signal.SIGKILL)  # its pool processes, if any outlived it
            say(f"{child.name} exited (code {code}); starting it again in {child.delay_s:g} s")
            child.restart_at = now + child.delay_s
            if now - child.started_at < STEADY_S:
                child.delay_s = min(child.delay_s * 2, MAX_RESTART_DELAY_S)

    def stop(self) -> int:
        say(f"stopping everything ({signal.Signals(self.stop_signal).name})")
        for child in self.children:
            if child.running():
                child.ask_to_stop()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while any(child.running() for child in self.children) and time.monotonic() < deadline:
            time.sleep(POLL_S)
        for child in self.children:
            if child.running():
                say(f"{child.name} did not stop within {STOP_TIMEOUT_S:g} s: killing it")
            child.signal_group(signal.SIGKILL)  # leftovers of the group too
            if child.process is not None:
                child.process.wait()
        say("stopped")
        return 0


# Open live streams get this long to end at a stop before uvicorn closes them (they reconnect).
GRACEFUL_S = 3
# Under ASGI each request runs its sync parts in a thread of its own that ends with the request, so a
# persistent connection (DATABASE_CONN_MAX_AGE > 0) would be left behind in a dead thread at every
# request, open until garbage collected: Django advises 0 there. The worker and beat keep the
# setting's default (60), as a gunicorn sync worker does.
ASGI_ENV = {"DATABASE_CONN_MAX_AGE": "0"}


def web_command(bind: str, noreload: bool) -> list[str]:
    """uvicorn serving dizzysite.asgi on `bind` (host:port); its reloader watches the Python packages
    only (not var/, where the cache and the broker write all the time, nor .venv)."""
    host, _, port = bind.rpartition(":")
    command = [sys.executable, "-m", "uvicorn", "dizzysite.asgi:application", "--host", host or "127.0.0.1"]
    command += ["--port", port, "--timeout-graceful-shutdown", str(GRACEFUL_S), "--no-server-header"]
    command += ["--lifespan", "off"]  # Django's ASGI application has no lifespan events to hear
    if noreload:
        return command
    packages = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name != "tests")
    return command + ["--reload"] + [arg for name in packages for arg in ("--reload-dir", name)]


def children_for(bind: str, noreload: bool, concurrency: int) -> list[Child]:
    python = sys.executable
    web = web_command(bind, noreload)
    celery = [python, "-m", "celery", "-A", "dizzysite"]
    return [
        Child("web", web, stop_group=True, env=ASGI_ENV),
        Child("worker", celery + ["worker", "--loglevel=INFO", f"--concurrency={concurrency}"]),
        Child("beat", celery + ["beat", "--loglevel=INFO"]),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", default="127.0.0.1:8000", help="the site's address and port")
    parser.add_argument("--noreload", action="store_true", help="uvicorn without its reloader")
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's processes")
    parser.add_argument("--restart-delay", type=float, default=1.0, help="seconds before a first restart")
    args = parser.parse_args(argv)
    site_url = serve_at(args.bind)
    print(f"[make run] The site: {site_url}/  Health: {site_url}/healthz  Emails: var/mail/", flush=True)
    supervisor = Supervisor(children_for(args.bind, args.noreload, args.concurrency), args.restart_delay)
    return supervisor.run()


def serve_at(bind: str) -> str:
    """The site's address for `bind`, set as SITE_URL for the site, the worker and beat (the links in
    emails), unless SITE_URL is set already; what is printed for the newcomer to open."""
    host, _, port = bind.rpartition(":")
    shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
    os.environ.setdefault("SITE_URL", f"http://{shown}:{port}")
    return os.environ["SITE_URL"].rstrip("/")


if __name__ == "__main__":
    sys.exit(main())
