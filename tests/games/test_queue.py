"""games.queue: tasks are queued by name, and still run at once in the tests (eager mode)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from celery import current_app, shared_task
from django.conf import settings

from games.queue import queue, queue_on_commit

ROOT = Path(__file__).resolve().parents[2]
APPS = ["accounts", "api", "games", "moderation", "notifications", "push", "ratings", "tournaments"]
ran: list[tuple] = []


@shared_task(name="tests.test_events_queue.remember")
def remember(*args) -> None:
    ran.append(args)


def queued_names() -> set[str]:
    """Every task name the site's code queues through games.queue."""
    pattern = re.compile(r"queue(?:_on_commit)?\(\s*\"([\w.]+)\"")
    names = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            names.update(pattern.findall(path.read_text()))
    return names


def test_every_name_queued_or_scheduled_is_a_registered_task_of_that_name():
    current_app.loader.import_default_modules()
    wanted = queued_names() | {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.tasks.play_bot_moves", "games.tasks.enforce_deadline", "push.tasks.send_push"} <= wanted
    missing = sorted(name for name in wanted if name not in current_app.tasks)
    assert missing == []


def test_no_module_outside_a_tasks_module_imports_one():
    importing = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if path.name != "tasks.py" and re.search(
                r"^\s*(from \w+\.tasks import|import \w+\.tasks)", path.read_text(), re.M
            ):
                importing.append(str(path.relative_to(ROOT)))
    assert importing == []


def test_queue_on_commit_runs_the_task_after_the_commit_in_eager_mode(db, django_capture_on_commit_callbacks):
    ran.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queue_on_commit("tests.test_events_queue.remember", 1, 2)
    assert ran == []  # not before the commit
    for callback in callbacks:
        callback()
    assert ran == [(1, 2)]
    queue("tests.test_events_queue.remember", 3)
    assert ran == [(1, 2), (3,)]


def test_a_fresh_web_process_finds_a_task_its_code_never_imported():
    """The web process imports no tasks module: the first queue imports them (autodiscovery), so the
    task runs under eager mode instead of going to a broker nobody reads in the tests."""
    script = (
        "import sys, django; django.setup();"
        "from games.queue import _registered;"
        "assert 'games.tasks' not in sys.modules, 'imported already';"
        "task = _registered('games.tasks.play_bot_moves');"
        "print(task.name, 'games.tasks' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "dizzysite.settings_test", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["games.tasks.play_bot_moves", "True"]
