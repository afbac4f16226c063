"""The Celery app. Tasks take ids, re-read the database and are safe to run twice."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")

app = Celery("dizzysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker's heartbeat while it consumes (beat's comes from its scheduler, CELERY_BEAT_SCHEDULER).
app.steps["consumer"].add("dizzysite.heartbeat:WorkerHeartbeat")


@signals.task_failure.connect
def count_task_failure(sender=None, args=None, exception=None, **kwargs) -> None:
    """A run of failures is seen on /healthz and in the admin (dizzysite/task_failures.py)."""
    from dizzysite import task_failures

    task_failures.record_failure(sender.name, args, exception)


@signals.task_success.connect
def clear_task_failures(sender=None, **kwargs) -> None:
    from dizzysite import task_failures

    task_failures.record_success(sender.name, sender.request.args)
