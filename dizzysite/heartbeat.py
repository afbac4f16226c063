"""Heartbeats of the worker and beat: a dead worker is seen, not only felt.

Each writes the time to the cache (shared by every process: files under var/cache on one machine,
Redis in production) every HEARTBEAT_INTERVAL_SECONDS: the worker from its consumer's timer (a
bootstep, so it stops when the consumer stops), beat at each tick of its scheduler (beat wakes at
least every CELERY_BEAT_MAX_LOOP_INTERVAL seconds). `problems()` names what is missing or older than
HEARTBEAT_STALE_SECONDS; /healthz (dizzysite/health.py) and the admin's pages show it.
"""

from __future__ import annotations

import logging
import time

from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

ROLES = ("worker", "beat")


def cache_key(role: str) -> str:
    return f"dizzy:heartbeat:{role}"


def write_heartbeat(role: str) -> None:
    """Now, as `role`'s last sign of life. A cache that does not answer is logged, never raised: the
    heartbeat must not stop what it reports on (the health check then reports it stale)."""
    from django.core.cache import cache

    try:
        cache.set(cache_key(role), time.time(), timeout=24 * 3600)
    except Exception:
        logger.exception("could not write the %s heartbeat", role)


def heartbeat_ages(now: float | None = None) -> dict[str, float | None]:
    """Seconds since each role's last heartbeat; None when there is none."""
    from django.core.cache import cache

    now = time.time() if now is None else now
    stamps = cache.get_many([cache_key(role) for role in ROLES])
    ages: dict[str, float | None] = {}
    for role in ROLES:
        stamp = stamps.get(cache_key(role))
        ages[role] = None if stamp is None else max(0.0, now - float(stamp))
    return ages


def heartbeat_problems(now: float | None = None) -> list[str]:
    """What is wrong with the worker and beat, in words for a person; empty when both are fresh."""
    stale_after = settings.HEARTBEAT_STALE_SECONDS
    names = {"worker": gettext("The Celery worker"), "beat": gettext("Celery beat")}
    problems = []
    for role, age in heartbeat_ages(now).items():
        if age is None:
            problems.append(gettext("%(process)s has never reported (no heartbeat).") % {"process": names[role]})
        elif age > stale_after:
            problems.append(
                gettext("%(process)s last reported %(seconds)d seconds ago.") % {"process": names[role], "seconds": age}
            )
    return problems


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A consumer bootstep: the worker's heartbeat while it consumes (dizzysite/celery.py adds it)."""

    def __init__(self, parent, **kwargs):
        super().__init__(parent, **kwargs)
        self.timer_entry = None

    def start(self, parent) -> None:
        write_heartbeat("worker")
        self.timer_entry = parent.timer.call_repeatedly(
            settings.HEARTBEAT_INTERVAL_SECONDS, write_heartbeat, ("worker",), priority=10
        )

    def stop(self, parent) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None

    shutdown = stop


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler, writing beat's heartbeat as it ticks (CELERY_BEAT_SCHEDULER)."""

    last_heartbeat = 0.0

    def tick(self, *args, **kwargs):
        if time.monotonic() - self.last_heartbeat >= settings.HEARTBEAT_INTERVAL_SECONDS:
            write_heartbeat("beat")
            self.last_heartbeat = time.monotonic()
        return super().tick(*args, **kwargs)
