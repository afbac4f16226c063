"""Write notification rows inside the caller's transaction; the sending happens after commit."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.queue import queue_on_commit
from notifications.channels import deliver, deliver_many
from notifications.models import Kind, MatchMute, Notification, preference


def notify(match, recipient, kind: str, turn: int) -> Notification | None:
    """One notification about `match` at version `turn`: a row in the player's inbox, an email unless
    they do not want this kind by email (`status` says so), a push to each of their devices unless
    they do not want it by push (push/). Nothing for a player who muted the match.

    Safe to call twice: the unique (recipient, match, turn, kind) row makes the second a no-op."""
    if recipient is None or not recipient.is_active:
        return None
    if MatchMute.objects.filter(user=recipient, match=match).exists():
        return None  # muted: nothing at all about this match
    if kind == Kind.YOUR_TURN:
        replace_unread_turns(match, recipient)
    return _write(recipient, kind, match=match, turn=turn)


def replace_unread_turns(match, recipient) -> int:
    """One unread "your turn" per match at most: a newer one replaces the older, which leaves the
    inbox and the count and is sent no more (notifications.context.skip_reason)."""
    now = timezone.now()
    older = Notification.objects.filter(
        recipient=recipient, match=match, kind=Kind.YOUR_TURN, read_at__isnull=True, deleted_at__isnull=True
    )
    return older.update(read_at=now, deleted_at=now)


def notify_tournament(tournament, recipient, kind: str) -> Notification | None:
    """One notification about a tournament (notifications.models.TOURNAMENT_KINDS), through the
    same channels and preferences as a match's. Called inside the caller's transaction; the email
    and pushes go once it commits. Safe to call twice (one row per tournament, kind and player)."""
    if recipient is None or not recipient.is_active:
        return None
    return _write(recipient, kind, tournament=tournament, turn=0)


def notify_championship(championship, recipient, kind: str) -> Notification | None:
    """notify_tournament for a championship (its sign-up confirmed, Kind.TOURNAMENT_ENTRY and the
    player's preferences for it): one row per championship, kind and player."""
    if recipient is None or not recipient.is_active:
        return None
    return _write(recipient, kind, championship=championship, turn=0)


def _write(recipient, kind: str, turn: int, match=None, tournament=None, championship=None) -> Notification | None:
    row = Notification(
        match=match, tournament=tournament, championship=championship, recipient=recipient, kind=kind, turn=turn
    )
    _set_email_status(row)
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:
        return None
    if row.status == Notification.Status.PENDING:
        queue_on_commit("notifications.tasks.send_notification", row.pk)
    deliver(row)  # the other channels: push's devices (push/apps.py registers it)
    return row


def _set_email_status(row: Notification) -> None:
    """An unsaved row's email status by its recipient's preference for its kind: sent each, kept for
    the digest, or skipped (no email address, or not wanted by email)."""
    choice = preference(row.recipient, row.kind) if row.recipient.email else "never"
    row.status = {"each": Notification.Status.PENDING, "digest": Notification.Status.DIGEST}.get(
        choice, Notification.Status.SKIPPED
    )
    row.in_digest = row.status == Notification.Status.DIGEST
    row.error = "not wanted by email" if row.status == Notification.Status.SKIPPED else ""


def notify_all(rows: Sequence[Notification]) -> list[Notification]:
    """notify() and notify_tournament() for many new rows at once, in a number of queries that does not
    grow with them (a championship season starts hundreds of matches in one task).

    `rows`: unsaved, each with its recipient (loaded), kind, turn and match or tournament. The same
    rules as _write: none to an inactive player or about a muted match, the status by the player's
    preference, then the email and push tasks on commit. The rows must be new (about a match or
    tournament just created): one that exists already fails the insert."""
    match_ids = {row.match_id for row in rows if row.match_id is not None}
    mutes = MatchMute.objects.filter(match_id__in=match_ids) if match_ids else MatchMute.objects.none()
    muted = set(mutes.values_list("user_id", "match_id"))
    kept = [row for row in rows if row.recipient.is_active and (row.recipient_id, row.match_id) not in muted]
    for row in kept:
        _set_email_status(row)
    Notification.objects.bulk_create(kept)
    for row in kept:
        if row.status == Notification.Status.PENDING:
            queue_on_commit("notifications.tasks.send_notification", row.pk)
    deliver_many(kept)
    return kept
