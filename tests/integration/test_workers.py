"""Real Celery workers on Redis, a real SMTP server, PostgreSQL: what slow play rests on."""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.engines.registry import get_engine
from games.models import Match, Move
from notifications.models import Kind, Notification
from tests.helpers import play_first_move, start_match
from tests.integration.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def refreshed(match: Match) -> Match:
    match.refresh_from_db()
    return match


def test_a_move_delivers_the_your_turn_email_over_smtp(alice, bob, publish_to_redis, start_worker, smtp_server):
    start_worker("w1")
    match = start_match(alice, [bob])
    engine = get_engine(match.game)
    while True:  # the order choice keeps the turn; move until it passes
        seat = match.seats.get(to_act=True)
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match = refreshed(match)
        if not match.seats.get(number=seat.number).to_act:
            break
    other = match.seats.get(to_act=True).user

    def turn_emails():
        return [m for m in smtp_server.to(other.email) if "Your turn" in m["Subject"]]

    messages = wait_for(turn_emails, 30, what="the your-turn email")
    assert len(messages) == 1 and "Your turn in Solitaire Chess" in messages[0]["Subject"]
    assert messages[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Notification.objects.get(recipient=other, kind=Kind.YOUR_TURN).status == Notification.Status.SENT


def test_a_bot_seat_moves_by_itself(alice, publish_to_redis, start_worker):
    start_worker("w1")
    match = actions.create_match(
        alice,
        "solitaire-chess",
        [actions.SeatSpec("me"), actions.SeatSpec("bot", "normal")],
        options={"advantage": "1"},  # the bot chooses the order, so it must act first
    )
    wait_for(lambda: Move.objects.filter(match=match, by_bot=True).exists(), 30, what="the bot's move")
    match = wait_for(lambda: refreshed(match).seats.get(number=0).to_act and match, 30, what="alice's turn")
    assert match.version >= 1 and match.status == Match.Status.ACTIVE


def test_a_passed_deadline_is_applied_once_by_two_workers_and_two_sweeps(
    alice, bob, publish_to_redis, start_worker, smtp_server
):
    from games.tasks import sweep_deadlines

    # A person moved first: the time-out is scored, not the abort of a match never played (SITE-ABORT).
    match = play_first_move(start_match(alice, [bob], options={"ruleset": "death"}))
    late = match.seats.get(to_act=True)
    past = timezone.now() - timedelta(minutes=1)
    match.seats.update(reserve_left=0)
    match.seats.filter(pk=late.pk).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    start_worker("w1")
    start_worker("w2")
    threads = [threading.Thread(target=sweep_deadlines.delay) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wait_for(lambda: refreshed(match).status == Match.Status.FINISHED, 30, what="the timeout")

    def results(user):
        return [m for m in smtp_server.to(user.email) if "is over" in m["Subject"]]

    wait_for(lambda: results(alice) and results(bob), 30, what="result emails")
    sweep_deadlines.delay()
    wait_for(lambda: Notification.objects.filter(status=Notification.Status.PENDING).count() == 0, 20)
    assert Move.objects.filter(match=match, kind="timeout").count() == 1
    assert len(results(alice)) == 1 and len(results(bob)) == 1
    assert late.number not in refreshed(match).result["winners"]


def test_a_worker_killed_in_the_middle_of_a_task_loses_nothing(alice, bob, publish_to_redis, start_worker, smtp_server):
    first = start_worker("doomed")
    match = start_match(alice, [bob])
    from django.db import transaction

    from notifications.service import notify

    # The start's emails go out first, so that the worker has nothing else to do.
    done = (Notification.Status.SENT, Notification.Status.SKIPPED)
    wait_for(lambda: not Notification.objects.exclude(status__in=done).exists(), 30, what="the start's emails")
    smtp_server.hold.set()  # the relay hangs: the worker is stuck in the middle of sending
    with transaction.atomic():
        row = notify(match, bob, Kind.HANDED_TO_BOT, 99)  # a kind no other step of this test sends
    claimed = Notification.Status.SENDING
    wait_for(lambda: Notification.objects.get(pk=row.pk).status == claimed, 30, what="the worker to claim the row")
    wait_for(lambda: smtp_server.held, 30, what="the worker to be stuck in the middle of sending")
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(10)
    smtp_server.hold.clear()
    row.refresh_from_db()
    # It had claimed the row (committed) before talking to the relay: no lock was held meanwhile.
    assert row.status == Notification.Status.SENDING and row.attempts == 1
    start_worker("rescuer")
    # Once the dead worker's claim has run out (the workers' lease: 5 x EMAIL_TIMEOUT + 10 s), the
    # safety net that beat runs every five minutes queues the email again (so does the broker, when
    # it hands the unacknowledged task to another worker).
    from notifications.tasks import resend_waiting_notifications

    lease_end = row.claimed_at + timedelta(seconds=5 * 3 + 10)
    time.sleep(max(0.0, (lease_end - timezone.now()).total_seconds()) + 1)
    resend_waiting_notifications.delay()

    def handed():
        return [m for m in smtp_server.to(bob.email) if "A bot took your seat" in m["Subject"]]

    wait_for(
        lambda: Notification.objects.get(pk=row.pk).status == Notification.Status.SENT,
        60,
        what="the email after the worker died",
    )
    row.refresh_from_db()
    assert row.attempts == 2
    wait_for(handed, 10)
    assert len(handed()) == 1  # the stuck first attempt never completed: exactly one email
