"""`make bench` (bench/run.py) runs each benchmark in a process of its own; one that runs out of time
or is interrupted is told to stop, so that it stops the servers it started: nothing is left running."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

from bench import run

CHILD = textwrap.dedent(
    """
    import signal, sys, time
    def stop(signum, frame):
        open(sys.argv[1], "w").write("stopped its servers")
        sys.exit(143)
    signal.signal(signal.SIGTERM, stop)
    print("started", flush=True)
    time.sleep(60)
    """
)


def test_a_benchmark_out_of_time_is_told_to_stop(tmp_path: Path, monkeypatch) -> None:
    script, marker = tmp_path / "child.py", tmp_path / "marker"
    script.write_text(CHILD)
    started = time.monotonic()
    code, output = run.run_child([sys.executable, str(script), str(marker)], {}, timeout=2)
    assert code == "timeout"
    assert output == "started\n"
    assert marker.read_text() == "stopped its servers"  # its own cleanup ran: not killed outright
    assert time.monotonic() - started < 20


def test_the_boards_table_names_every_size(tmp_path: Path) -> None:
    row = {
        "boards": 2000,
        "streams_opened": 2000,
        "streams_ended_early": 0,
        "moves_played": 300,
        "moves_refused": 0,
        "lost": 0,
        "p95_ms": 40.2,
        "redrawn_p50_ms": 31.0,
        "redrawn_p95_ms": 120.4,
        "threads_before": 12,
        "threads_open": 14,
        "kb_per_stream": 41.6,
        "server_errors": 0,
        "fragment_failed": 0,
    }
    table = run.boards_table([row, {"boards": 5000, "error": "the events benchmark failed: exit 1"}])
    assert table[2] == "| 2,000 | 2,000 / 0 | 300 / 0 | 0 | 40 ms | 31 / 120 ms | 12 -> 14 | 42 KB | 0 |"
    assert table[3].startswith("| 5,000 | the events benchmark failed")


def test_the_sweep_names_the_sizes_that_meet_the_targets_and_the_largest_held() -> None:
    def row(boards: int, **changes: object) -> dict[str, object]:
        figures = {"boards": boards, "streams_opened": boards, "streams_ended_early": 0, "moves_refused": 0}
        figures.update(lost=0, fragment_failed=0, server_errors=0, redrawn_p95_ms=80.0)
        return {**figures, **changes}

    rows = [row(500), row(2000), row(5000, redrawn_p95_ms=400.0), row(10000, lost=3), row(20000, streams_opened=19000)]
    verdict = run.sweep_verdict(rows)
    assert "at: 500, 2,000." in verdict
    assert "The largest size held: 10,000 open boards." in verdict
    assert "at: no size." in run.sweep_verdict([row(500, moves_refused=1)])
