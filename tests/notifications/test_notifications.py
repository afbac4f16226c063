"""Emails: one row per (recipient, match, turn, kind), sent after commit, with one-click unsubscribe."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import actions
from games.engines.registry import get_engine
from games.tasks import send_reminders
from notifications.emails import unsubscribe_token
from notifications.models import Kind, Notification
from notifications.service import notify
from notifications.tasks import MAX_ATTEMPTS, send_digests
from tests.helpers import assert_nothing_locked, start_match, time_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


def move_once(match):
    match.refresh_from_db()
    seat = match.seats.get(to_act=True)
    engine = get_engine(match.game)
    while True:
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
        if not match.seats.get(number=seat.number).to_act:
            return seat, match.seats.get(to_act=True)


def test_invitation_and_start_emails(alice, bob, on_commit):
    with on_commit():
        match = actions.create_match(
            alice, "solitaire-chess", [actions.SeatSpec("me"), actions.SeatSpec("invite", "bob")]
        )
    assert [m.subject for m in mail.outbox] == ["[Dizzysite] alice invites you to Solitaire Chess"]
    with on_commit():
        actions.do_join(match.pk, bob)
    assert Notification.objects.filter(kind=Kind.STARTED, recipient=bob).count() == 1
    assert mail.outbox[-1].subject == f"[Dizzysite] Solitaire Chess #{match.pk} has started"


def test_your_turn_email_after_the_move_with_links_and_unsubscribe(alice, bob, on_commit):
    match = start_match(alice, [bob])
    mail.outbox.clear()
    with on_commit():
        mover, next_seat = move_once(match)
    row = Notification.objects.get(kind=Kind.YOUR_TURN, turn__gt=0)
    assert row.recipient == next_seat.user and row.status == Notification.Status.SENT and row.attempts == 1
    message = mail.outbox[-1]
    assert message.to == [next_seat.user.email] and "Your turn" in message.subject
    assert f"/matches/{match.pk}/" in message.body and "/email/preferences/" in message.body
    html = message.alternatives[0][0]
    assert f'href="http://127.0.0.1:8000/matches/{match.pk}/"' in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/email/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    assert match.seed not in message.body and match.seed not in html


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_turn_emails_deadline_is_in_the_sites_date_style_language_and_zone(alice, bob, on_commit, language):
    """The email says "move by" as the board, the inbox and the push do: SHORT_DATETIME_FORMAT of
    dizzysite/formats, in the reader's language and zone (it wrote its own "D j M, H:i e")."""
    import zoneinfo

    from django.template.defaultfilters import date as date_filter
    from django.utils import translation

    for player in (alice, bob):
        player.language, player.time_zone = language, "Pacific/Auckland"
        player.save()
    match = start_match(alice, [bob])
    mail.outbox.clear()
    with on_commit():
        _, next_seat = move_once(match)
    next_seat.refresh_from_db()
    with translation.override(language):
        moment = date_filter(
            next_seat.deadline.astimezone(zoneinfo.ZoneInfo("Pacific/Auckland")), "SHORT_DATETIME_FORMAT"
        )
    assert moment.endswith(("NZDT", "NZST"))
    message = mail.outbox[-1]
    assert moment in message.body and moment in message.alternatives[0][0]


def test_no_turn_email_while_the_player_looks_at_the_board(alice, bob, client_for, on_commit):
    match = start_match(alice, [bob])
    match.refresh_from_db()
    waiting = match.seats.exclude(to_act=True).get()
    client_for(waiting.user).get(f"/matches/{match.pk}/?since=0", HTTP_HX_REQUEST="true")  # its poll
    mail.outbox.clear()
    with on_commit():
        move_once(match)
    # At the board, which the live events redraw: no "your turn" at all, in the inbox or by email.
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN, turn__gt=0).exists()
    assert not mail.outbox


def test_a_turn_email_is_skipped_when_the_player_opened_the_board_after_it_was_written(
    alice, bob, client_for, django_capture_on_commit_callbacks
):
    match = start_match(alice, [bob])
    match.refresh_from_db()
    waiting = match.seats.exclude(to_act=True).get()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks() as callbacks:  # the row is written; its email not sent yet
        move_once(match)
    client_for(waiting.user).get(f"/matches/{match.pk}/?since=0", HTTP_HX_REQUEST="true")  # then the board
    for callback in callbacks:
        callback()
    row = Notification.objects.get(kind=Kind.YOUR_TURN, turn__gt=0)
    assert row.status == Notification.Status.SKIPPED and "looking at the board" in row.error
    assert not mail.outbox


def test_one_unread_turn_per_match_a_newer_replaces_the_older(alice, bob, on_commit):
    match = start_match(alice, [bob])
    for version in (3, 5, 7):
        assert notify(match, bob, Kind.YOUR_TURN, version) is not None
    unread = Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN, read_at__isnull=True)
    assert list(unread.values_list("turn", flat=True)) == [7]
    older = Notification.objects.get(recipient=bob, kind=Kind.YOUR_TURN, turn=3)
    assert older.deleted_at is not None
    from notifications.context import skip_reason

    assert skip_reason(older) == "replaced by a newer one, or deleted"  # its email is sent no more


def test_the_end_takes_an_unread_turn_out_of_the_inbox(alice, bob, client_for):
    """After the end there is no turn to take: the inbox says the match is over, not "your turn"."""
    match = start_match(alice, [bob])
    for player in (alice, bob):
        notify(match, player, Kind.YOUR_TURN, 3)
    actions.do_adjudicate(match.pk, [0], "test")
    unread = Notification.objects.filter(match=match, kind=Kind.YOUR_TURN, read_at__isnull=True)
    assert not unread.exists()
    assert Notification.objects.filter(match=match, recipient=bob, kind=Kind.FINISHED).exists()
    inbox = client_for(bob).get("/inbox/").content.decode()
    assert "It is your turn" not in inbox and f"#{match.pk}" in inbox


def test_notify_twice_writes_one_row(alice, bob):
    match = start_match(alice, [bob])
    assert notify(match, bob, Kind.YOUR_TURN, 5) is not None
    assert notify(match, bob, Kind.YOUR_TURN, 5) is None
    assert Notification.objects.filter(recipient=bob, kind=Kind.YOUR_TURN, turn=5).count() == 1


def test_never_and_digest_preferences(alice, bob, on_commit):
    bob.email_preferences = {"your_turn": "digest", "finished": "never"}
    bob.save()
    match = start_match(alice, [bob])
    never = notify(match, bob, Kind.FINISHED, 3)  # still a row, for the inbox, but no email
    assert never.status == Notification.Status.SKIPPED and never.error == "not wanted by email"
    row = notify(match, bob, Kind.YOUR_TURN, 3)
    assert row.status == Notification.Status.DIGEST
    notify(match, bob, Kind.YOUR_TURN, 4)
    mail.outbox.clear()
    assert send_digests() == 1 and send_digests() == 0
    assert len(mail.outbox) == 1 and "digest" in mail.outbox[0].subject
    assert mail.outbox[0].body.count(f"Solitaire Chess #{match.pk}") == 2
    assert not Notification.objects.filter(status=Notification.Status.DIGEST).exists()


def test_reminder_is_always_sent_once_when_a_fifth_is_left(alice, bob, on_commit):
    bob.email_preferences = {k: "never" for k in Kind.values}
    alice.email_preferences = {k: "never" for k in Kind.values}
    bob.save()
    alice.save()
    match = start_match(alice, [bob])
    seat = match.seats.get(to_act=True)
    assert send_reminders() == 0
    seat.remind_at = timezone.now() - timedelta(seconds=1)
    seat.save()
    mail.outbox.clear()
    with on_commit():
        assert send_reminders() == 1
    assert send_reminders() == 0
    assert len(mail.outbox) == 1 and "running out" in mail.outbox[0].subject


def run_with_retries(notification_id: int) -> int:
    """Run the send task as a worker would: again after each retry it asks for. Returns the runs."""
    from celery.exceptions import Retry

    from notifications.tasks import send_notification

    for runs in range(1, MAX_ATTEMPTS + 3):
        try:
            send_notification.apply(args=[notification_id])
        except Retry as retry:
            assert retry.when >= 30  # backoff: 30 s, then doubling
            continue
        return runs
    raise AssertionError("the task never stopped retrying")


def test_smtp_failures_are_retried_then_marked_failed(alice, bob, monkeypatch):
    calls = []

    def broken_send(self, fail_silently=False):
        calls.append(1)
        raise smtplib.SMTPServerDisconnected("relay went away")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken_send)
    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.INVITED, 9)
    assert run_with_retries(row.pk) == MAX_ATTEMPTS
    row.refresh_from_db()
    assert row.status == Notification.Status.FAILED and row.attempts == MAX_ATTEMPTS
    assert "relay went away" in row.error and len(calls) == MAX_ATTEMPTS
    assert run_with_retries(row.pk) == 1 and len(calls) == MAX_ATTEMPTS  # a failed row is not sent again


def test_a_passing_smtp_failure_sends_once(alice, bob, monkeypatch):
    from django.core.mail import EmailMultiAlternatives

    original = EmailMultiAlternatives.send
    failures = [smtplib.SMTPServerDisconnected("once")]

    def flaky_send(self, fail_silently=False):
        if failures:
            raise failures.pop()
        return original(self, fail_silently)

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", flaky_send)
    match = start_match(alice, [bob])
    mail.outbox.clear()
    row = notify(match, bob, Kind.INVITED, 9)
    assert run_with_retries(row.pk) == 2
    assert run_with_retries(row.pk) == 1  # a repeated task finds the row sent and sends nothing
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT and row.attempts == 2 and len(mail.outbox) == 1


def test_unsubscribe_link_changes_nothing_on_get_and_unsubscribes_on_post(bob, client):
    url = f"/email/unsubscribe/{unsubscribe_token(bob.pk, Kind.YOUR_TURN)}/"
    page = client.get(url)
    assert page.status_code == 200 and "<form" in page.content.decode()
    bob.refresh_from_db()
    assert bob.email_preferences == {}
    assert client.post(url).status_code == 200  # one click, no cookie, no CSRF token (RFC 8058)
    bob.refresh_from_db()
    assert bob.email_preferences == {"your_turn": "never"}


def test_forged_unsubscribe_token_is_refused(bob, client):
    token = unsubscribe_token(bob.pk, Kind.YOUR_TURN)
    assert client.post(f"/email/unsubscribe/{token[:-3]}abc/").status_code == 400
    bob.refresh_from_db()
    assert bob.email_preferences == {}


def test_preferences_page(bob, client_for, client):
    c = client_for(bob)
    page = c.get("/email/preferences/").content.decode()
    assert "It is your turn" in page and "Always sent" in page
    c.post("/email/preferences/", {k: "digest" for k in Kind.values if k != "reminder"})
    bob.refresh_from_db()
    assert bob.email_preferences["your_turn"] == "digest"
    bad = c.post("/email/preferences/", {"your_turn": "hourly"})
    assert bad.status_code == 200
    bob.refresh_from_db()
    assert bob.email_preferences["your_turn"] == "digest"
    assert client.get("/email/preferences/").status_code == 302


def test_finished_email_to_every_player(alice, bob, on_commit):
    match = start_match(alice, [bob], options={"ruleset": "death"})
    mail.outbox.clear()
    with on_commit():
        time_out(match)
    subjects = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert subjects == [(u.email, f"[Dizzysite] Solitaire Chess #{match.pk} is over") for u in (alice, bob)]


# --- SMTP holds no lock; a dead worker's claim is taken over; a digest unsubscribes from all it held --


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_smtp_is_talked_to_outside_any_transaction_or_lock(alice, bob, monkeypatch):
    from django.db import connection

    from tests.conftest import require

    require(connection.vendor == "postgresql", "row locks need PostgreSQL")
    match = start_match(alice, [bob])
    seen = []

    def slow_send(self, fail_silently=False):
        row = Notification.objects.get(recipient=bob, kind=Kind.INVITED, turn=9)
        assert not connection.in_atomic_block
        assert row.status == Notification.Status.SENDING  # claimed, and the claim committed
        assert_nothing_locked(Notification.objects.filter(pk=row.pk), type(match).objects.filter(pk=match.pk))
        seen.append(self.subject)
        return 1

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", slow_send)
    notify(match, bob, Kind.INVITED, 9)  # sent by the (eager) task once the row is committed
    row = Notification.objects.get(recipient=bob, kind=Kind.INVITED, turn=9)
    assert len(seen) == 1 and row.status == Notification.Status.SENT and row.attempts == 1

    bob.email_preferences = {"your_turn": "digest", "started": "digest"}
    bob.save()
    notify(match, bob, Kind.YOUR_TURN, 3)
    notify(match, bob, Kind.STARTED, 0)

    def digest_send(self, fail_silently=False):
        assert not connection.in_atomic_block
        assert_nothing_locked(Notification.objects.filter(recipient=bob))
        seen.append(self.subject)
        return 1

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", digest_send)
    assert send_digests() == 1 and len(seen) == 2
    assert not Notification.objects.filter(recipient=bob, status=Notification.Status.DIGEST).exists()


def test_a_claim_in_progress_is_left_alone_and_a_dead_workers_claim_is_taken_over(alice, bob):
    """A worker marks the row sending before SMTP. Another task for the row waits for the claim's
    lease (never a second email while the first may still go out); after it, the row is sent."""
    from celery.exceptions import Retry

    from notifications.tasks import resend_waiting_notifications, send_lease, send_notification

    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.INVITED, 9)
    claimed = timezone.now() - timedelta(seconds=5)
    Notification.objects.filter(pk=row.pk).update(status=Notification.Status.SENDING, claimed_at=claimed, attempts=1)
    mail.outbox.clear()
    with pytest.raises(Retry) as retry:
        send_notification.apply(args=[row.pk])
    assert 0 < retry.value.when <= send_lease().total_seconds() and mail.outbox == []
    assert resend_waiting_notifications() == 0  # a live claim is not queued again

    Notification.objects.filter(pk=row.pk).update(claimed_at=timezone.now() - send_lease() - timedelta(seconds=1))
    assert resend_waiting_notifications() == 1  # the safety net finds the dead worker's claim (and sends it)
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT and row.attempts == 2 and len(mail.outbox) == 1
    send_notification.apply(args=[row.pk])
    assert len(mail.outbox) == 1


def test_a_digest_killed_mid_send_goes_back_to_the_next_digest(alice, bob):
    from notifications.tasks import resend_waiting_notifications, send_lease

    bob.email_preferences = {"your_turn": "digest"}
    bob.save()
    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.YOUR_TURN, 3)
    old = timezone.now() - send_lease() - timedelta(seconds=1)
    Notification.objects.filter(pk=row.pk).update(status=Notification.Status.SENDING, claimed_at=old)
    mail.outbox.clear()
    assert resend_waiting_notifications() == 0 and mail.outbox == []  # never sent on its own
    assert Notification.objects.get(pk=row.pk).status == Notification.Status.DIGEST
    assert send_digests() == 1 and len(mail.outbox) == 1


def test_a_digests_unsubscribe_stops_every_kind_it_held(alice, bob, client):
    import re

    bob.email_preferences = {"your_turn": "digest", "started": "digest", "handed_to_bot": "digest"}
    bob.save()
    match = start_match(alice, [bob])
    notify(match, bob, Kind.YOUR_TURN, 3)
    notify(match, bob, Kind.STARTED, 1)
    notify(match, bob, Kind.HANDED_TO_BOT, 4)
    mail.outbox.clear()
    assert send_digests() == 1
    header = mail.outbox[0].extra_headers["List-Unsubscribe"]
    url = re.search(r"https?://[^/]+(/email/unsubscribe/[^>]+)>", header).group(1)
    page = client.get(url).content.decode()
    for label in ("It is your turn", "A match has started", "Your seat was handed to a bot"):
        assert label in page
    assert "A match has finished" not in page
    done = client.post(url)
    assert done.status_code == 200
    text = done.content.decode()
    assert "It is your turn" in text and "A match has started" in text and "Your seat was handed to a bot" in text
    bob.refresh_from_db()
    assert bob.email_preferences == {"your_turn": "never", "started": "never", "handed_to_bot": "never"}


def test_unsubscribe_links_of_emails_sent_before_still_work(bob, client):
    from django.core import signing

    from notifications.emails import UNSUBSCRIBE_SALT

    old = signing.dumps({"u": bob.pk, "k": "finished"}, salt=UNSUBSCRIBE_SALT, compress=True)
    assert client.post(f"/email/unsubscribe/{old}/").status_code == 200
    bob.refresh_from_db()
    assert bob.email_preferences == {"finished": "never"}
