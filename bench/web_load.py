"""A small HTTP load generator: threads with http.client connections, bounded in time and count.

Pure standard library, no Django: bench/web/ (load.py) drives the gunicorn server with it from its own
process. Each thread takes its requests from its own Source, so a source can keep state (a chain
of moves of one match must go in order, and stops at the first refused move).
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Req:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None = None


class Source(Protocol):
    def next(self) -> Req | None:
        """The next request, or None when this source has nothing left to send."""

    def done(self, ok: bool) -> None:
        """The outcome of the request last returned by next()."""


class Cycle:
    """The same list of requests over and over, starting at `offset` (so threads spread out)."""

    def __init__(self, requests: list[Req], offset: int = 0) -> None:
        self.requests = requests
        self.index = offset % len(requests)

    def next(self) -> Req | None:
        req = self.requests[self.index]
        self.index = (self.index + 1) % len(self.requests)
        return req

    def done(self, ok: bool) -> None:
        pass


class Chains:
    """Round robin over several chains (one per match); a chain is dropped at its first failure.

    A move is only legal at the version it was computed for, so after a refused move the rest of
    that match's chain would be refused too."""

    def __init__(self, chains: list[list[Req]]) -> None:
        self.chains = [list(reversed(chain)) for chain in chains if chain]  # pop() from the end
        self.current = -1

    def next(self) -> Req | None:
        if not self.chains:
            return None
        self.current = (self.current + 1) % len(self.chains)
        return self.chains[self.current][-1]

    def done(self, ok: bool) -> None:
        chain = self.chains[self.current]
        chain.pop()
        if not ok or not chain:
            del self.chains[self.current]
            self.current -= 1


@dataclass
class LoadResult:
    name: str
    threads: int
    seconds: float  # the measured window (after the warm-up)
    ok: int = 0
    failed: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests only
    first_failure: str = ""
    exhausted: bool = False  # the sources ran dry before the time was up
    completed: int = 0  # every answered request of the run, measured or not (for server_cpu)
    server_cpu: float = 0.0  # CPU seconds the server used during the whole run (0 if not sampled)

    @property
    def server_cpu_ms(self) -> float:
        """Server CPU per request: unlike the rate, barely moved by other programs on the machine."""
        return 1000.0 * self.server_cpu / self.completed if self.completed else 0.0

    @property
    def rps(self) -> float:
        return self.ok / self.seconds if self.seconds > 0 else 0.0

    def merge(self, other: LoadResult) -> LoadResult:
        """Two runs of the same endpoint as one."""
        return LoadResult(
            name=self.name,
            threads=self.threads,
            seconds=self.seconds + other.seconds,
            ok=self.ok + other.ok,
            failed=self.failed + other.failed,
            latencies=self.latencies + other.latencies,
            first_failure=self.first_failure or other.first_failure,
            exhausted=self.exhausted or other.exhausted,
            completed=self.completed + other.completed,
            server_cpu=self.server_cpu + other.server_cpu,
        )

    def percentile_ms(self, fraction: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return 1000.0 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_load(
    name: str,
    port: int,
    sources: list[Source],
    check: Callable[[int, bytes], bool],
    seconds: float,
    warmup: float,
    max_requests: int = 1_000_000,
    cpu_sample: Callable[[], dict[int, float]] | None = None,
) -> LoadResult:
    """One thread per source for warmup + seconds; counts what starts and ends inside the window.

    `check(status, body)` says whether a response is a success. A failed request is counted but
    its latency is not (it is usually a cheap error page and would flatter the figures).
    `cpu_sample()` gives CPU seconds by server process id, read before and after the run."""
    lock = threading.Lock()
    result = LoadResult(name=name, threads=len(sources), seconds=seconds)
    started = time.perf_counter()
    window_start = started + warmup
    deadline = window_start + seconds
    sent = [0]
    last_end = [window_start]
    cpu_before = cpu_sample() if cpu_sample else {}

    def worker(source: Source) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        latencies: list[float] = []
        ok = failed = completed = 0
        first_failure = ""
        while True:
            now = time.perf_counter()
            if now >= deadline:
                break
            with lock:
                if sent[0] >= max_requests:
                    break
                sent[0] += 1
            req = source.next()
            if req is None:
                break
            t0 = time.perf_counter()
            try:
                # http.client opens a new connection by itself when the server closed the last
                # one (gunicorn's sync workers answer every request with "Connection: close").
                conn.request(req.method, req.path, body=req.body, headers=req.headers)
                response = conn.getresponse()
                body = response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                status, body = 0, repr(error).encode()
            t1 = time.perf_counter()
            success = check(status, body)
            source.done(success)
            completed += 1
            if t0 < window_start or t1 > deadline:
                continue  # warm-up, or overlapping the end: not measured
            if success:
                ok += 1
                latencies.append(t1 - t0)
            else:
                failed += 1
                if not first_failure:
                    first_failure = f"{req.method} {req.path} -> {status}: {body[:300]!r}"
        conn.close()
        with lock:
            result.ok += ok
            result.failed += failed
            result.completed += completed
            result.latencies.extend(latencies)
            result.first_failure = result.first_failure or first_failure
            last_end[0] = max(last_end[0], time.perf_counter())

    threads = [threading.Thread(target=worker, args=(source,), daemon=True) for source in sources]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if cpu_sample:
        cpu_after = cpu_sample()
        # A process that started during the run counts from zero; one that ended is lost (rare).
        result.server_cpu = sum(cpu - cpu_before.get(pid, 0.0) for pid, cpu in cpu_after.items())
    if last_end[0] < deadline - 0.5:
        # Every source ran dry early: the rate is over the time actually spent.
        result.exhausted = True
        result.seconds = max(0.001, last_end[0] - window_start)
    return result
