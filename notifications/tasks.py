"""Sending emails: tasks take ids, claim the row, talk to SMTP holding no lock, never send a row twice."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from games.models import Match, fill_names, seat_names
from games.presence import is_watching
from notifications.emails import absolute, build_email, recipient_language
from notifications.models import Kind, Notification

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
SMTP_ERRORS = (smtplib.SMTPException, OSError)


def email_context(row: Notification) -> dict:
    """What the email may say: only what the recipient could see on the board (ALL-3)."""
    if row.match_id is None:
        return tournament_context(row)
    match = row.match
    seats = list(match.seats.select_related("user"))
    names = seat_names(seats)
    mine = next((s for s in seats if s.user_id == row.recipient_id), None)
    finished = match.is_over  # ALL-3: however it ended (an abort too), everything is public
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
        "end_reason": match.end_reason_text(names),
        "deadline": mine.deadline if mine else None,
        "invited_by": match.created_by.public_name,
        **(_chat_context(row) if row.kind == Kind.CHAT else {}),
        **(_round_context(match) if _opens_match(row) else {}),
    }


def _opens_match(row: Notification) -> bool:
    """The first word a player gets of a new match: "started", or "your turn" at its first move (a
    tournament's match: its own kind, "a new round and your match")."""
    return row.kind in (Kind.STARTED, Kind.TOURNAMENT_ROUND) or (row.kind == Kind.YOUR_TURN and row.turn == 0)


def _round_context(match: Match) -> dict:
    """A tournament's match: its tournament and round, told in the first email and push about the
    match (that is the "new round, and your match" notification)."""
    from tournaments.models import Table

    table = Table.objects.select_related("round__tournament__season").filter(match=match).first()
    if table is None:
        return {}
    return {"tournament_name": table.round.tournament.title, "round_number": table.round.number}


def tournament_context(row: Notification) -> dict:
    """A tournament's email and push: only what its public page shows (name, game, start, round,
    the recipient's own place and the number of entrants), never anything of a running match."""
    tournament = row.tournament
    entry = tournament.entries.filter(user_id=row.recipient_id).first()
    return {
        "kind": row.kind,
        "match_name": tournament.title,  # a championship division's in the recipient's language
        "tournament_name": tournament.title,
        "game_name": tournament.game_name,
        "board_url": absolute(tournament.get_absolute_url()),
        "others": [],
        "last_texts": [],
        "end_reason": "",
        "deadline": None,
        "invited_by": tournament.organiser.public_name,
        "starts_at": tournament.starts_at,
        "cancelled": tournament.status == tournament.Status.CANCELLED,
        "place": entry.place if entry else None,
        "entrants": tournament.entries.count(),
    }


def _chat_context(row: Notification) -> dict:
    from notifications.chat import unread_chat

    authors, count = unread_chat(row)
    return {"chat_authors": authors, "chat_count": count}


@shared_task
def notify_chat(message_id: int) -> int:
    """Queued by moderation's post_chat once a message is committed: the inbox entries (and so the
    emails and pushes) it makes, batched per match and reader (notifications/chat.py)."""
    from notifications.chat import write_chat_notifications

    return write_chat_notifications(message_id)


def _skip_reason(row: Notification) -> str:
    """Why a waiting email should no longer go out (empty: send it)."""
    if row.kind == Kind.CHAT:
        if row.read_at is not None or row.deleted_at is not None:
            return "read already"
        if is_watching(row.match_id, row.recipient_id):
            return "the player was looking at the board"
        return ""
    if row.kind not in (Kind.YOUR_TURN, Kind.REMINDER):
        return ""
    seat = row.match.seats.filter(user=row.recipient).first()
    if seat is None or not seat.to_act or row.match.status != Match.Status.ACTIVE:
        return "no longer their turn"
    if row.kind == Kind.YOUR_TURN and is_watching(row.match_id, row.recipient_id):
        return "the player was looking at the board"
    return ""


def send_lease() -> timedelta:
    """How long a worker may take to send one email before another takes the row over: longer
    than an SMTP conversation can last (each of its steps may wait EMAIL_TIMEOUT)."""
    return timedelta(seconds=5 * (settings.EMAIL_TIMEOUT or 120) + 10)


@shared_task(bind=True, max_retries=None)  # attempts are counted on the row (MAX_ATTEMPTS)
def send_notification(self, notification_id: int) -> None:
    """Claim the row (marked sending, committed), talk to SMTP holding no lock, record the outcome.

    Sent at most once: a second task finds the row sent, or claimed and waits for the claim's
    lease. A worker killed mid-send leaves a claim that is taken over once its lease has passed."""
    claim = _claim(notification_id)
    if claim is None:
        return
    if isinstance(claim, timedelta):  # another worker is sending it now: look again after its lease
        raise self.retry(countdown=max(1, int(claim.total_seconds()) + 1))
    try:
        with translation.override(recipient_language(claim.recipient)):  # the move's words too
            message = build_email(claim.recipient, claim.kind, email_context(claim))
        message.send()
    except SMTP_ERRORS as error:
        if _record_failure(claim, f"{type(error).__name__}: {error}"):
            # Exponential backoff: 30 s, 1 min, 2 min, ...
            raise self.retry(countdown=30 * 2 ** (claim.attempts - 1)) from None
        return
    Notification.objects.filter(pk=claim.pk, status=Notification.Status.SENDING).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), error=""
    )


def _claim(notification_id: int) -> Notification | timedelta | None:
    """In a short transaction: the row, now marked sending; or how long another worker's claim
    still runs; or None when there is nothing to send (sent already, skipped, in a digest)."""
    now = timezone.now()
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update(of=("self",))  # not the optional match or tournament
            .select_related("match", "tournament", "recipient")
            .filter(pk=notification_id)
            .first()
        )
        if row is None or row.in_digest:
            return None
        if row.status == Notification.Status.SENDING and row.claimed_at + send_lease() > now:
            return row.claimed_at + send_lease() - now
        if row.status not in (Notification.Status.PENDING, Notification.Status.SENDING):
            return None  # sent already (a retried or repeated task), skipped or failed
        reason = _skip_reason(row)
        if reason:
            row.status, row.error = Notification.Status.SKIPPED, reason
            row.save(update_fields=["status", "error"])
            return None
        row.status, row.claimed_at, row.attempts = Notification.Status.SENDING, now, row.attempts + 1
        row.save(update_fields=["status", "claimed_at", "attempts"])
        return row


def _record_failure(row: Notification, error: str) -> bool:
    """The mail server refused or failed: True when the email is to be tried again."""
    again = row.attempts < MAX_ATTEMPTS
    status = Notification.Status.PENDING if again else Notification.Status.FAILED
    Notification.objects.filter(pk=row.pk, status=Notification.Status.SENDING).update(status=status, error=error)
    if not again:
        logger.error("giving up on notification %s: %s", row.pk, error)
    return again


@shared_task
def resend_waiting_notifications() -> int:
    """A safety net: queue again emails still pending a while after they were written, and the
    claims of workers that died mid-send (a digest's rows go back to wait for the next digest)."""
    now = timezone.now()
    stale_claims = Notification.objects.filter(status=Notification.Status.SENDING, claimed_at__lt=now - send_lease())
    stale_claims.filter(in_digest=True).update(status=Notification.Status.DIGEST, claimed_at=None)
    waiting = Notification.objects.filter(
        Q(status=Notification.Status.PENDING, created__lt=now - timedelta(minutes=10), attempts=0)
        | Q(pk__in=stale_claims.filter(in_digest=False).values("pk"))
    )
    ids = list(waiting.values_list("pk", flat=True)[:500])
    for notification_id in ids:
        send_notification.delay(notification_id)
    return len(ids)


@shared_task
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
            .select_related("match", "tournament", "recipient")
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


@shared_task(autoretry_for=SMTP_ERRORS, retry_backoff=30, max_retries=MAX_ATTEMPTS)
def send_account_email(subject: str, body: str, html: str | None, to: list[str], from_email: str | None) -> None:
    """allauth's own emails (verification, password reset), sent by the worker."""
    from django.core.mail import EmailMultiAlternatives

    message = EmailMultiAlternatives(subject=subject, body=body, to=to, from_email=from_email)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
