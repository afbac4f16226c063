"""The Celery app. Tasks take ids, re-read the database and are safe to run twice."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")

app = Celery("dizzysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker's heartbeat while it consumes (beat's comes from its scheduler, CELERY_BEAT_SCHEDULER).
app.steps["consumer"].add("dizzysite.heartbeat:WorkerHeartbeat")
