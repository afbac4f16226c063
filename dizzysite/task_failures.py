"""Tasks that fail the same way again and again are seen, not only logged.

A periodic task that raises at every run (a tournament that cannot be paired, a sweep that meets the
same bad row) would otherwise fail quietly every minute for ever. Every task's end is counted in the
cache that the web processes and workers share (Celery's task_success and task_failure signals,
connected in dizzysite/celery.py): a run of failures with the same error, per task and arguments,
until a success clears it. /healthz and the admin's pages name each one that has failed
REPEATED_FAILURES times in a row, as they name a dead worker.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

REPEATED_FAILURES = 3  # failures in a row, with the same error, that make a task a problem to see
INDEX_KEY = "dizzy:task-failures"
KEEP_SECONDS = 7 * 24 * 3600


def run_name(task_name: str, args: Any) -> str:
    return f"{task_name}({', '.join(repr(a) for a in (args or ()))})"


def error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]


def previous_failures(task_name: str, args: Any, error: BaseException) -> int:
    """How many runs of this task with these arguments failed just before, with this same error."""
    found = cache.get(_key(run_name(task_name, args)))
    return found["count"] if found and found["error"] == error_text(error) else 0


def record_failure(task_name: str, args: Any, error: BaseException) -> None:
    name, text = run_name(task_name, args), error_text(error)
    try:
        found = cache.get(_key(name))
        count = found["count"] + 1 if found and found["error"] == text else 1
        cache.set(_key(name), {"count": count, "error": text, "last": time.time()}, KEEP_SECONDS)
        index = set(cache.get(INDEX_KEY) or ())
        if name not in index:
            cache.set(INDEX_KEY, sorted(index | {name}), KEEP_SECONDS)
    except Exception:  # the cache is down: /healthz says so itself; a task's end must not fail for it
        logger.exception("could not count the failure of %s", name)


def record_success(task_name: str, args: Any) -> None:
    name = run_name(task_name, args)
    try:
        index = cache.get(INDEX_KEY) or ()
        if name in index:
            cache.delete(_key(name))
            cache.set(INDEX_KEY, [n for n in index if n != name], KEEP_SECONDS)
    except Exception:
        logger.exception("could not clear the failures of %s", name)


def failing_tasks() -> list[str]:
    """In words for a person: each task and arguments whose last REPEATED_FAILURES runs or more failed
    with the same error."""
    names = cache.get(INDEX_KEY) or ()
    found = cache.get_many([_key(name) for name in names])
    problems = []
    for name in names:
        row = found.get(_key(name))
        if row and row["count"] >= REPEATED_FAILURES:
            problems.append(
                gettext("%(task)s has failed %(count)d times in a row: %(error)s")
                % {"task": name, "count": row["count"], "error": row["error"]}
            )
    return problems


def _key(name: str) -> str:
    return f"dizzy:task-failure:{name}"
