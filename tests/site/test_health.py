"""/healthz and the admin's warning when the worker or beat stops reporting."""

from __future__ import annotations

import time

import pytest
from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError, connection

from dizzysite.heartbeat import HeartbeatScheduler, WorkerHeartbeat, cache_key, heartbeat_ages, write_heartbeat

pytestmark = pytest.mark.django_db

WARNING = "Background work is not running"


def stamp(role: str, seconds_ago: float) -> None:
    cache.set(cache_key(role), time.time() - seconds_ago)


def test_healthz_is_200_when_the_worker_and_beat_reported_lately(client):
    stamp("worker", 3)
    stamp("beat", 50)  # well inside the minute, even on a slow machine
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["problems"] == []
    assert 2 < body["heartbeat_age_seconds"]["worker"] < 10 and 49 < body["heartbeat_age_seconds"]["beat"] < 60
    assert "no-cache" in response["Cache-Control"] and "Set-Cookie" not in response


def test_healthz_is_503_with_the_reason_when_the_worker_is_older_than_a_minute(client):
    stamp("worker", 61)
    stamp("beat", 1)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["problems"] == ["The Celery worker last reported 61 seconds ago."]


def test_healthz_is_503_when_beat_never_reported(client):
    stamp("worker", 0)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["problems"] == ["Celery beat has never reported (no heartbeat)."]
    assert response.json()["heartbeat_age_seconds"]["beat"] is None


def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    stamp("worker", 0)
    stamp("beat", 0)

    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["problems"] == ["The database does not answer: connection refused"]


def test_healthz_is_503_when_the_cache_does_not_answer(client, monkeypatch):
    def broken_get_many(*args, **kwargs):
        raise ConnectionError("redis is gone")

    monkeypatch.setattr(cache, "get_many", broken_get_many)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["problems"] == ["The cache does not answer: redis is gone"]


def test_healthz_web_asks_only_the_database_for_a_load_balancer(client, monkeypatch):
    stamp("worker", 600)  # the worker is down: a monitor hears it, the load balancer keeps the web process
    assert client.get("/healthz").status_code == 503
    response = client.get("/healthz?web")
    assert response.status_code == 200 and response.json()["problems"] == []

    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    assert client.get("/healthz?web").status_code == 503


def test_healthz_changes_nothing_and_takes_only_get_and_head(client):
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 503  # nothing reported in this test
    assert heartbeat_ages() == {"worker": None, "beat": None}


def test_the_admin_warns_its_staff_while_the_worker_is_stale(make_user, client_for):
    moderator = make_user("moderator", is_staff=True, is_superuser=True)
    stamp("worker", 120)
    stamp("beat", 2)
    page = client_for(moderator).get("/admin/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count(WARNING) == 1
    assert "The Celery worker last reported 120 seconds ago." in text


def test_the_admin_shows_no_warning_when_both_are_fresh(make_user, client_for):
    moderator = make_user("moderator", is_staff=True, is_superuser=True)
    stamp("worker", 1)
    stamp("beat", 1)
    page = client_for(moderator).get("/admin/")
    assert page.status_code == 200 and WARNING not in page.content.decode()


def test_the_admins_warning_in_dutch(make_user, client_for):
    moderator = make_user("moderator", is_staff=True, is_superuser=True, language="nl")
    stamp("beat", 1)
    text = client_for(moderator).get("/admin/").content.decode()
    assert "Het achtergrondwerk loopt niet: De Celery-worker heeft zich nooit gemeld (geen hartslag)." in text


def test_the_admins_login_page_tells_a_visitor_nothing(client):
    page = client.get("/admin/login/")
    assert page.status_code == 200 and WARNING not in page.content.decode()


def test_the_workers_bootstep_writes_at_start_and_then_on_its_timer():
    calls = []

    class Timer:
        def call_repeatedly(self, seconds, function, args, priority=0):
            calls.append((seconds, function, args))
            return self

        def cancel(self):
            calls.append("cancelled")

    class Consumer:
        timer = Timer()

    step = WorkerHeartbeat.__new__(WorkerHeartbeat)
    step.timer_entry = None
    step.start(Consumer())
    assert heartbeat_ages()["worker"] is not None and heartbeat_ages()["beat"] is None
    assert calls == [(5, write_heartbeat, ("worker",))]
    step.stop(Consumer())
    assert calls[-1] == "cancelled"


def test_beats_scheduler_writes_its_heartbeat_as_it_ticks(tmp_path):
    from dizzysite.celery import app

    scheduler = HeartbeatScheduler(app=app, schedule_filename=str(tmp_path / "schedule"), lazy=True)
    scheduler.setup_schedule()
    try:
        assert heartbeat_ages()["beat"] is None
        scheduler.tick()
        assert heartbeat_ages()["beat"] < 5
    finally:
        scheduler.close()


FAILING: dict[int, str] = {}  # what -> the error the sweep meets on it


@shared_task(name="tests.site.flaky_sweep")
def flaky_sweep(what: int) -> int:
    """A periodic task that meets the same bad row again and again, until it is mended."""
    if what in FAILING:
        raise ValueError(FAILING[what])
    return what


def run_sweep(what: int, error: str = "") -> None:
    FAILING.pop(what, None)
    if error:
        FAILING[what] = error
    result = flaky_sweep.apply(args=(what,), throw=False)  # as a worker runs it: Celery's signals fire
    assert result.failed() == bool(error)


def test_a_task_failing_the_same_way_again_and_again_is_named_on_healthz_and_in_the_admin(
    client, make_user, client_for
):
    stamp("worker", 1)
    stamp("beat", 1)
    for _ in range(2):
        run_sweep(7, "cannot seat 5 at tables of 4")
    assert client.get("/healthz").status_code == 200  # twice may be bad luck
    run_sweep(7, "cannot seat 5 at tables of 4")
    run_sweep(8)  # another run of the task, with other arguments, that works
    response = client.get("/healthz")
    assert response.status_code == 503
    (problem,) = response.json()["problems"]
    assert problem == "tests.site.flaky_sweep(7) has failed 3 times in a row: ValueError: cannot seat 5 at tables of 4"
    admin = client_for(make_user("moderator", is_staff=True, is_superuser=True)).get("/admin/").content.decode()
    assert "A background task fails again and again" in admin and "flaky_sweep(7)" in admin
    assert WARNING not in admin  # the worker itself is fine
    run_sweep(7)  # it works again: no longer a problem
    assert client.get("/healthz").status_code == 200


def test_failures_with_another_error_start_the_count_again(client):
    stamp("worker", 1)
    stamp("beat", 1)
    for error in ("first", "second", "third"):
        run_sweep(3, error)
    assert client.get("/healthz").status_code == 200
