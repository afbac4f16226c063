"""Real parts for the integration tests: Redis, a Celery worker process, an SMTP server."""

from __future__ import annotations

import asyncio
import email
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from dizzysite.netutil import free_port, port_open
from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def wait_for(condition, timeout: float = 30.0, interval: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Mailbox:
    """What the SMTP server received. `hold` makes the next DATA hang (a stuck relay)."""

    def __init__(self) -> None:
        self.messages: list[email.message.Message] = []
        self.hold = threading.Event()
        self.held = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        if self.hold.is_set():
            self.held += 1  # a client is now waiting for the end of its DATA
        while self.hold.is_set():
            await asyncio.sleep(0.1)
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.Message]:
        with self.lock:
            return [m for m in self.messages if address in m["To"]]


@pytest.fixture
def smtp_server():
    from aiosmtpd.controller import Controller

    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    mailbox.port = port
    yield mailbox
    mailbox.hold.clear()
    controller.stop()


@pytest.fixture
def redis_broker():
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    # Each test's broker keys under a prefix of its own, so test runs side by side on one Redis
    # (two checkouts, a CI run) never take each other's tasks nor wipe each other's queues.
    prefix = f"dizzytest-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    os.environ["CELERY_KEY_PREFIX"] = prefix
    yield REDIS_URL
    os.environ.pop("CELERY_KEY_PREFIX", None)
    for key in client.scan_iter(match=f"{prefix}*"):
        client.delete(key)


@pytest.fixture
def publish_to_redis(redis_broker):
    """This test process sends tasks to Redis instead of running them in place."""
    from dizzysite.celery import app

    saved = dict(app.conf.task_always_eager and {"task_always_eager": True} or {})
    old_broker = app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = redis_broker
    app.conf.broker_transport_options = {"visibility_timeout": 5, "global_keyprefix": os.environ["CELERY_KEY_PREFIX"]}
    forget_connections(app)
    yield
    app.conf.task_always_eager = saved.get("task_always_eager", True)
    app.conf.broker_url = old_broker
    forget_connections(app)


def forget_connections(app) -> None:
    """Drop the app's connection and producer pools, which keep the broker they were made for
    (kombu keeps the pools themselves in a registry by broker URL, so they are not closed)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def start_worker(redis_broker, smtp_server, transactional_db, settings):
    """Start real `celery worker` processes on the test database; they are stopped at the end."""
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        require(False, "the integration tests need PostgreSQL (the worker is another process)")
    database_url = (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    workers: list[subprocess.Popen] = []
    logs: list[Path] = []
    var_dir = tempfile.mkdtemp(prefix="dizzy-worker-")

    def start(name: str) -> subprocess.Popen:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
            "DATABASE_URL": database_url,
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": redis_broker,
            "CELERY_VISIBILITY_TIMEOUT": "5",
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_server.port),
            "EMAIL_TIMEOUT": "3",  # a dead worker's claim on an email runs out after 5 x 3 + 10 s
            "DIZZY_VAR_DIR": var_dir,
        }
        log = Path(var_dir) / f"{name}.log"
        logs.append(log)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "dizzysite",
                "worker",
                "--pool=solo",
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        workers.append(process)
        wait_for(lambda: "ready." in log.read_text(), 60, what=f"worker {name} to start")
        process.log = log
        return process

    yield start
    for process in workers:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
    for log in logs:
        print(f"--- {log.name}\n{log.read_text()[-3000:]}")
