"""The web benchmark's stages in order (bench/run.py calls main() through bench.web)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.web.config import PG_BENCH_URL, Options
from bench.web.database import bench_env, prepare_site, recreate_database
from bench.web.inprocess import breakdowns, count_queries
from bench.web.load import run_all_loads, served_pages
from bench.web.loading import load_data
from bench.web.playing import make_games
from bench.web.report import report
from bench.web.server import ServerCpu, start_gunicorn, stop_gunicorn
from dizzysite.netutil import free_port


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
