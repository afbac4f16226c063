"""A live clock's deadlines are applied at their second by real workers and beat on Redis.

A custom clock of a few seconds (3 s a turn, one reserve period of 2 s; the form's minimum is a
minute, so the test sets the figures on the row before the match starts): the reserve period starts,
then the Death Match is lost on time (SC-7), each within 2 s of its deadline, exactly once with two
workers, although every deadline is queued three times and beat runs beside them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import actions
from games.models import Match, Move
from games.tasks import enforce_deadline
from tests.helpers import play_first_move
from tests.integration.conftest import ROOT, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

EXACT = timedelta(seconds=2)  # the bound


@pytest.fixture
def start_beat(redis_broker):
    """`celery beat` (the minute sweep and the other periodic tasks) on the test broker."""
    var_dir = tempfile.mkdtemp(prefix="dizzy-beat-")
    log = Path(var_dir) / "beat.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dizzysite.settings",
        "CELERY_BROKER_URL": redis_broker,
        "DIZZY_VAR_DIR": var_dir,
    }
    command = [sys.executable, "-m", "celery", "-A", "dizzysite", "beat", "--loglevel=INFO"]
    command += ["--schedule", str(Path(var_dir) / "schedule")]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )
    wait_for(lambda: "beat: Starting" in log.read_text(), 60, what="beat to start")
    yield process
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
    print(f"--- beat\n{log.read_text()[-2000:]}")


def queue_twice_more(match_id: int, deadline: datetime) -> None:
    """Two more tasks for the same deadline, as a repeated sweep or a redelivered message would."""
    for _ in range(2):
        enforce_deadline.apply_async((match_id, deadline.isoformat()), eta=deadline)


def death_match(alice, bob, preset: str, **clock) -> Match:
    """A Solitaire Chess Death Match of alice against bob (lost on time, SC-7), created, not joined."""
    seats = [actions.SeatSpec("me"), actions.SeatSpec("invite", bob.username)]
    return actions.create_match(
        alice, "solitaire-chess", seats, options={"ruleset": "death"}, time_preset=preset, **clock
    )


def lost_on_time(match: Match, seconds: float) -> tuple[Match, Move]:
    """The match once a worker has ended it by its loss on time, and that time-out."""
    match = wait_for(
        lambda: Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).first(),
        seconds,
        interval=0.02,
        what="the loss on time",
    )
    return match, Move.objects.get(match=match, kind="timeout")


def test_a_reserve_period_and_the_loss_on_time_each_come_within_two_seconds_once(
    alice, bob, publish_to_redis, start_worker, start_beat
):
    workers = [start_worker("w1"), start_worker("w2")]
    match = death_match(alice, bob, "custom", custom_clock=(60, 1, 60))
    Match.objects.filter(pk=match.pk).update(turn_seconds=3, period_seconds=2)
    actions.do_join(match.pk, bob)  # the match starts: a 3 s turn, its task queued on commit
    play_first_move(match)  # a person moved: the loss on time is scored, not an abort (ruling SITE-ABORT)
    late = match.seats.get(to_act=True)
    first = late.deadline
    assert late.reserve_left == 1 and first - late.turn_started == timedelta(seconds=3)
    queue_twice_more(match.pk, first)

    def reserve_started():
        late.refresh_from_db()
        return late.reserve_left == 0 and timezone.now()

    seen = wait_for(reserve_started, 10, interval=0.02, what="the reserve period")
    second = late.deadline
    assert second == first + timedelta(seconds=2)
    queue_twice_more(match.pk, second)
    match, timeout = lost_on_time(match, 10)
    print(f"reserve period seen {(seen - first).total_seconds():.3f} s after the turn's deadline")
    print(f"loss on time recorded {(timeout.created - second).total_seconds():.3f} s after the reserve's deadline")
    assert timedelta(0) <= seen - first < EXACT
    assert timedelta(0) <= timeout.created - second < EXACT
    assert late.number not in match.result["winners"] and match.version == 2  # the first move and the time-out

    time.sleep(1)  # every duplicate has run by now: none changed anything more
    assert Move.objects.filter(match=match).count() == 2
    logs = "".join(worker.log.read_text() for worker in workers)
    assert logs.count("spent a reserve period") == 1 and logs.count("timed out") == 1
    assert logs.count("games.tasks.enforce_deadline") >= 6  # received and run: 3 per deadline


def test_a_long_clocks_deadline_is_applied_at_its_second_by_the_sweeps_timer(
    alice, bob, publish_to_redis, start_worker
):
    """A daily clock's deadline comes within the minute: the sweep (run as beat would) starts the
    deadline timer, the next sweep finds it going through the lease in the cache the two workers share,
    and the loss on time comes within 2 s of the deadline, once."""
    from games.tasks import sweep_deadlines

    workers = [start_worker("w1"), start_worker("w2")]
    match = death_match(alice, bob, "daily")
    actions.do_join(match.pk, bob)
    play_first_move(match)  # a person moved: the loss on time is scored, not an abort (ruling SITE-ABORT)
    late = match.seats.get(to_act=True)
    deadline = (timezone.now() + timedelta(seconds=4)).replace(microsecond=0)
    match.seats.update(reserve_left=0)
    match.seats.filter(pk=late.pk).update(deadline=deadline)
    Match.objects.filter(pk=match.pk).update(deadline=deadline)

    def timer_runs() -> tuple[set[str], set[str]]:
        """The timer messages the workers received, and those that applied one deadline (a worker logs
        a task's end after its commit, when the match already reads as finished)."""
        logs = "".join(worker.log.read_text() for worker in workers)
        received = set(re.findall(r"enforce_coming_deadlines\[([\w-]+)\] received", logs))
        applied = set(re.findall(r"enforce_coming_deadlines\[([\w-]+)\] succeeded in [\d.e-]+s: 1\n", logs))
        return received, applied

    sweep_deadlines.delay()  # as beat would: it starts the timer ...
    wait_for(lambda: timer_runs()[0], 10, interval=0.05, what="the timer's message")
    sweep_deadlines.delay()  # ... and the next minute's sweep finds it going and sends nothing
    match, timeout = lost_on_time(match, 15)
    print(f"loss on time recorded {(timeout.created - deadline).total_seconds():.3f} s after the deadline")
    assert timedelta(0) <= timeout.created - deadline < EXACT

    received, applied = wait_for(lambda: timer_runs()[1] and timer_runs(), 10, what="the timer's log line")
    # One timer message, received and run, that applied the one deadline; the second sweep sent none.
    assert len(received) == 1 and applied == received
