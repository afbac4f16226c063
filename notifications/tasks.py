"""Sending emails: tasks take ids, lock the row, and never send a row twice."""

from __future__ import annotations

import logging
import smtplib
from collections import defaultdict
from datetime import timedelta

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.models import Match, fill_names, seat_names
from notifications.emails import absolute, build_email
from notifications.models import Kind, Notification

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
PRESENCE_SECONDS = 20  # a board polled this recently is being looked at (it polls every few seconds)
SMTP_ERRORS = (smtplib.SMTPException, OSError)


def email_context(row: Notification) -> dict:
    """What the email may say: only what the recipient could see on the board (ALL-3)."""
    match = row.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    mine = next((s for s in seats if s.user_id == row.recipient_id), None)
    finished = match.status == Match.Status.FINISHED
    last_move = match.moves.filter(number__lte=row.turn).order_by("-number").first()
    last_texts = []
    if last_move is not None:
        last_texts = [fill_names(t, names) for t in last_move.texts_for(mine.number if mine else None, finished)]
    return {
        "kind": row.kind,
        "match_name": f"{match.game_name} #{match.pk}",
        "game_name": match.game_name,
        "board_url": absolute(match.get_absolute_url()),
        "others": [s.public_name for s in seats if s.user_id != row.recipient_id],
        "last_texts": last_texts,
        "end_reason": match.end_reason,
        "deadline": mine.deadline if mine else None,
        "invited_by": match.created_by.public_name,
    }


def _skip_reason(row: Notification) -> str:
    """Why a waiting email should no longer go out (empty: send it)."""
    if row.kind not in (Kind.YOUR_TURN, Kind.REMINDER):
        return ""
    seat = row.match.seats.filter(user=row.recipient).first()
    if seat is None or not seat.to_act or row.match.status != Match.Status.ACTIVE:
        return "no longer their turn"
    if (
        row.kind == Kind.YOUR_TURN
        and seat.last_seen
        and seat.last_seen >= timezone.now() - timedelta(seconds=PRESENCE_SECONDS)
    ):
        return "the player was looking at the board"
    return ""


@shared_task(bind=True, max_retries=MAX_ATTEMPTS)
def send_notification(self, notification_id: int) -> None:
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update()
            .select_related("match", "recipient")
            .filter(pk=notification_id)
            .first()
        )
        if row is None or row.status != Notification.Status.PENDING:
            return  # sent already (a retried or repeated task), or skipped
        reason = _skip_reason(row)
        if reason:
            row.status, row.error = Notification.Status.SKIPPED, reason
            row.save(update_fields=["status", "error"])
            return
        row.attempts += 1
        try:
            build_email(row.recipient, row.kind, email_context(row)).send()
        except SMTP_ERRORS as error:
            row.error = f"{type(error).__name__}: {error}"
            if row.attempts >= MAX_ATTEMPTS:
                row.status = Notification.Status.FAILED
            row.save(update_fields=["attempts", "error", "status"])
            if row.status == Notification.Status.FAILED:
                logger.error("giving up on notification %s: %s", row.pk, row.error)
                return
        else:
            row.status, row.sent_at, row.error = Notification.Status.SENT, timezone.now(), ""
            row.save(update_fields=["attempts", "error", "status", "sent_at"])
            return
    # Retry outside the transaction, with exponential backoff (30 s, 1 min, 2 min, ...).
    raise self.retry(countdown=30 * 2 ** (row.attempts - 1))


@shared_task
def resend_waiting_notifications() -> int:
    """A safety net: queue again emails still pending a while after they were written."""
    stale = timezone.now() - timedelta(minutes=10)
    ids = list(
        Notification.objects.filter(status=Notification.Status.PENDING, created__lt=stale, attempts=0).values_list(
            "pk", flat=True
        )[:500]
    )
    for notification_id in ids:
        send_notification.delay(notification_id)
    return len(ids)


@shared_task
def send_digests() -> int:
    """Once a day: one email per player listing what they chose to receive as a digest."""
    waiting = defaultdict(list)
    for row in Notification.objects.filter(status=Notification.Status.DIGEST).select_related("match", "recipient"):
        waiting[row.recipient_id].append(row)
    sent = 0
    for rows in waiting.values():
        recipient = rows[0].recipient
        with transaction.atomic():
            locked = list(
                Notification.objects.select_for_update().filter(
                    pk__in=[r.pk for r in rows], status=Notification.Status.DIGEST
                )
            )
            if not locked:
                continue
            items = [
                {
                    "text": row.get_kind_display(),
                    "match_name": f"{row.match.game_name} #{row.match_id}",
                    "board_url": absolute(row.match.get_absolute_url()),
                }
                for row in rows
                if row.pk in {r.pk for r in locked}
            ]
            try:
                build_email(recipient, "digest", {"items": items}, unsubscribe_kind=locked[0].kind).send()
            except SMTP_ERRORS as error:
                logger.warning("digest for %s not sent: %s", recipient.pk, error)
                continue
            Notification.objects.filter(pk__in=[r.pk for r in locked]).update(
                status=Notification.Status.SENT, sent_at=timezone.now(), attempts=1
            )
            sent += 1
    return sent


@shared_task(autoretry_for=SMTP_ERRORS, retry_backoff=30, max_retries=MAX_ATTEMPTS)
def send_account_email(subject: str, body: str, html: str | None, to: list[str], from_email: str | None) -> None:
    """allauth's own emails (verification, password reset), sent by the worker."""
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives(subject=subject, body=body, to=to, from_email=from_email)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
