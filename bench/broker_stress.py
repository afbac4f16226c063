"""The embedded broker under stress: producer processes publish thousands of messages
while two consumer processes take them. Counts what came, what was lost, what broke.

    python bench/broker_stress.py [--transport dizzy|kombu|sqla] [--producers 4] [--each 1500] [--runs 3]

`dizzy` is the site's transport (dizzysite/broker.py), `kombu` kombu's own filesystem transport (its
reader can see an empty message, celery/kombu#1551), `sqla` kombu's SQLAlchemy transport on a SQLite
file (needs SQLAlchemy, which the site does not install). tests/site/test_broker.py runs the first two.
Each consumer stops once the producers are done and nothing came for IDLE_S; an exception from the
transport is counted as a crash (in a Celery worker it is "Unrecoverable error") and the consumer goes on.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import sys
import tempfile
import time
import uuid
from pathlib import Path

from kombu import Connection

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from dizzysite import broker  # noqa: E402

TRANSPORTS = {
    "dizzy": "dizzysite.broker:Transport",
    "kombu": "kombu.transport.filesystem:Transport",
    "sqla": "sqla",
}
PRODUCERS = 4
MESSAGES_EACH = 1500
CONSUMERS = 2
PADDING = "x" * 600  # about the size of a Celery task message
IDLE_S = 1.0  # a consumer stops after this long with nothing to take once every producer is done
BOUND_S = 120.0  # every wait of the stress test ends by this


def connect(folder: Path, transport: str = TRANSPORTS["dizzy"]) -> Connection:
    if transport == "sqla":
        return Connection(f"sqla+sqlite:///{folder / 'broker.sqlite3'}")
    return Connection(
        "filesystem://",
        transport=transport,
        transport_options={
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "control_folder": str(folder / "control"),
            "processed_folder": str(folder / "processed"),
            "store_processed": False,
        },
    )


def produce(folder: Path, transport: str, name: str, producer: int, count: int, start) -> None:
    start.wait(BOUND_S)
    with connect(folder, transport) as conn:
        channel_queue = conn.SimpleQueue(name)
        for number in range(count):
            channel_queue.put({"producer": producer, "number": number, "padding": PADDING})
        channel_queue.close()


def consume(folder: Path, transport: str, name: str, producers_done, results) -> None:
    """Take messages until the producers are done and nothing came for IDLE_S; report what came and
    every exception the transport raised (in a worker, each would be fatal)."""
    received: list[tuple[int, int]] = []
    errors: list[str] = []
    deadline = time.monotonic() + BOUND_S
    last_message = time.monotonic()
    with connect(folder, transport) as conn:
        channel_queue = conn.SimpleQueue(name)
        while time.monotonic() < deadline:
            try:
                message = channel_queue.get_nowait()
            except queue.Empty:
                if producers_done.is_set() and time.monotonic() - last_message > IDLE_S:
                    break
                time.sleep(0.002)
                continue
            except Exception as error:  # the worker's "Unrecoverable error"
                errors.append(f"{type(error).__name__}: {error}")
                continue
            message.ack()
            received.append((message.payload["producer"], message.payload["number"]))
            last_message = time.monotonic()
        channel_queue.close()
    results.put({"received": received, "errors": errors})


def stress(folder: Path, transport: str, producers: int = PRODUCERS, each: int = MESSAGES_EACH) -> dict:
    """Producers and consumers at once; what came, what was lost, what broke."""
    folder.mkdir(parents=True, exist_ok=True)
    # A queue name of its own: a transport class keeps what it declared in memory, in this process
    # and its forks, and would not write the binding into a new folder for a name it knows.
    name = f"stress-{uuid.uuid4().hex[:8]}"
    with connect(folder, transport) as conn:  # the queue and its binding exist before anyone starts
        conn.SimpleQueue(name).close()
    context = multiprocessing.get_context("fork")
    start, producers_done, results = context.Event(), context.Event(), context.Queue()
    consumer_processes = [
        context.Process(target=consume, args=(folder, transport, name, producers_done, results))
        for _ in range(CONSUMERS)
    ]
    producer_processes = [
        context.Process(target=produce, args=(folder, transport, name, p, each, start)) for p in range(producers)
    ]
    for process in consumer_processes + producer_processes:
        process.start()
    started = time.monotonic()
    start.set()
    for process in producer_processes:
        process.join(BOUND_S)
    producers_done.set()
    reports = [results.get(timeout=BOUND_S + IDLE_S + 10) for _ in consumer_processes]
    for process in consumer_processes:
        process.join(10)
    received = [item for report in reports for item in report["received"]]
    bad = folder / broker.BAD
    return {
        "seconds": time.monotonic() - started,
        "sent": producers * each,
        "received": len(received),
        "distinct": len(set(received)),
        "lost": producers * each - len(set(received)),
        "crashes": [error for report in reports for error in report["errors"]],
        "undecodable": len(list(bad.iterdir())) if bad.exists() else 0,
        "exit_codes": [p.exitcode for p in consumer_processes + producer_processes],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=sorted(TRANSPORTS), default="dizzy")
    parser.add_argument("--producers", type=int, default=PRODUCERS)
    parser.add_argument("--each", type=int, default=MESSAGES_EACH)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for run in range(args.runs):
        folder = Path(tempfile.mkdtemp(prefix="dizzy-broker-stress-")) / "broker"
        result = stress(folder, TRANSPORTS[args.transport], args.producers, args.each)
        crashes = result.pop("crashes")
        kinds: dict[str, int] = {}
        for crash in crashes:
            kinds[crash.split(":")[0]] = kinds.get(crash.split(":")[0], 0) + 1
        result.update(transport=args.transport, run=run, crashes=len(crashes), crash_kinds=kinds)
        result["seconds"] = round(result["seconds"], 1)
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
