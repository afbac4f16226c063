"""Queue Celery tasks by name, so the code that queues one never imports the module that defines it.

A tasks module is an entry point, like a view: it imports the actions it runs, and the actions name
the task they want run (circle 1). Every task has an explicit, stable `name=` (its module
path, as Celery named it before, so messages already in the broker and beat's schedule still match).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction


def _registered(name: str):
    """The task called `name`, or None where this process cannot find it.

    The worker imports every app's tasks module when it starts; a web process does not, so the first
    time it queues a task it imports them the same way (Celery's autodiscovery). Queued through the
    task itself, a task keeps its own options and runs at once under CELERY_TASK_ALWAYS_EAGER (the
    tests), which `send_task` would not do."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.loader.import_default_modules()
    return tasks.get(name)


def queue(name: str, *args: Any, **options: Any) -> None:
    """Queue the task `name` with `args` now (`options`: apply_async's, e.g. eta=)."""
    task = _registered(name)
    if task is None:
        current_app.send_task(name, args, **options)
    else:
        task.apply_async(args, **options)


def queue_on_commit(name: str, *args: Any, **options: Any) -> None:
    """Queue the task `name` once the current transaction commits (at once outside one), as
    `task.delay_on_commit` does: the worker then reads the committed rows."""
    transaction.on_commit(partial(queue, name, *args, **options))
