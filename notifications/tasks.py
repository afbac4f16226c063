"""Sending emails: tasks take ids, claim the row, talk to SMTP holding no lock, never send a row twice
(the claim and its lease: dizzysite/outbox.py, shared with the pushes)."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation

from dizzysite.outbox import Outbox, backoff, claim_countdown, queue_again
from notifications.context import email_context, skip_reason
from notifications.emails import absolute, build_email, recipient_language
from notifications.models import Kind, Notification

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
SMTP_ERRORS = (smtplib.SMTPException, OSError)


@shared_task(name="notifications.tasks.notify_chat")
def notify_chat(message_id: int) -> int:
    """Queued by moderation's post_chat once a message is committed: the inbox entries (and so the
    emails and pushes) it makes, batched per match and reader (notifications/chat.py)."""
    from notifications.chat import write_chat_notifications

    return write_chat_notifications(message_id)


def send_lease() -> timedelta:
    """How long a worker may take to send one email before another takes the row over: longer
    than an SMTP conversation can last (each of its steps may wait EMAIL_TIMEOUT)."""
    return timedelta(seconds=5 * (settings.EMAIL_TIMEOUT or 120) + 10)


OUTBOX = Outbox(Notification, send_lease, MAX_ATTEMPTS)


# max_retries=None: attempts are counted on the row (MAX_ATTEMPTS)
@shared_task(name="notifications.tasks.send_notification", bind=True, max_retries=None)
def send_notification(self, notification_id: int) -> None:
    """Claim the row (marked sending, committed), talk to SMTP holding no lock, record the outcome.

    Sent at most once: a second task finds the row sent, or claimed and waits for the claim's
    lease. A worker killed mid-send leaves a claim that is taken over once its lease has passed."""
    # Not a digest's row (the digest sends it); not the optional match or tournament locked.
    rows = Notification.objects.select_related("match", "tournament", "championship", "recipient").filter(
        in_digest=False
    )
    claim = OUTBOX.claim(rows, notification_id, skip_reason)
    if claim is None:
        return
    if isinstance(claim, timedelta):  # another worker is sending it now: look again after its lease
        raise self.retry(countdown=claim_countdown(claim))
    try:
        with translation.override(recipient_language(claim.recipient)):  # the move's words too
            message = build_email(claim.recipient, claim.kind, email_context(claim))
        message.send()
    except SMTP_ERRORS as error:
        text = f"{type(error).__name__}: {error}"
        if OUTBOX.failed(claim, text):
            raise self.retry(countdown=backoff(claim.attempts)) from None
        logger.error("giving up on notification %s: %s", claim.pk, text)
        return
    OUTBOX.sent(claim)


@shared_task(name="notifications.tasks.resend_waiting_notifications")
def resend_waiting_notifications() -> int:
    """A safety net: queue again emails still pending a while after they were written, and the
    claims of workers that died mid-send (a digest's rows go back to wait for the next digest)."""
    now = timezone.now()
    stale_claims = Notification.objects.filter(OUTBOX.stale_claims(now))
    stale_claims.filter(in_digest=True).update(status=Notification.Status.DIGEST, claimed_at=None)
    # Two queries, each found by the status index: OR-ed with the claims' subquery, PostgreSQL read
    # every notification ever written (a second per run at 2.5 million rows).
    lost = queue_again(send_notification, Notification.objects.filter(OUTBOX.lost(now)))
    return lost + queue_again(send_notification, stale_claims.filter(in_digest=False))


@shared_task(name="notifications.tasks.send_digests")
def send_digests() -> int:
    """Once a day: one email per player listing what they chose to receive as a digest.

    Like single emails, the rows are claimed (marked sending, committed) before SMTP, which runs
    holding no lock; a failure puts them back for the next digest."""
    recipients = (
        Notification.objects.filter(status=Notification.Status.DIGEST).values_list("recipient_id", flat=True).distinct()
    )
    return sum(_send_digest(recipient_id) for recipient_id in list(recipients))


def _send_digest(recipient_id: int) -> int:
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(of=("self",))  # not the optional match or tournament
            .select_related("match", "tournament", "championship", "recipient")
            .filter(recipient_id=recipient_id, status=Notification.Status.DIGEST)
            .order_by("id")
        )
        if not rows:
            return 0  # another run took them
        ids = [row.pk for row in rows]
        Notification.objects.filter(pk__in=ids).update(status=Notification.Status.SENDING, claimed_at=timezone.now())
    items = [
        {
            "text": Kind(row.kind).label,  # lazy: rendered in the recipient's language
            "match_name": row.subject_name,
            "board_url": absolute(row.get_absolute_url()),
        }
        for row in rows
    ]
    kinds = sorted({row.kind for row in rows})
    try:
        build_email(rows[0].recipient, "digest", {"items": items}, unsubscribe_kinds=kinds).send()
    except SMTP_ERRORS as error:
        logger.warning("digest for %s not sent: %s", recipient_id, error)
        Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING).update(
            status=Notification.Status.DIGEST, claimed_at=None, error=f"{type(error).__name__}: {error}"
        )
        return 0
    Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), attempts=1, error=""
    )
    return 1


@shared_task(
    name="notifications.tasks.send_account_email", autoretry_for=SMTP_ERRORS, retry_backoff=30, max_retries=MAX_ATTEMPTS
)
def send_account_email(subject: str, body: str, html: str | None, to: list[str], from_email: str | None) -> None:
    """allauth's own emails (verification, password reset), sent by the worker."""
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives(subject=subject, body=body, to=to, from_email=from_email)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
