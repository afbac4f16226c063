"""Write notification rows inside the caller's transaction; the sending happens after commit."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.queue import queue_on_commit
from notifications.channels import deliver
from notifications.models import MatchMute, Notification, preference


def notify(match, recipient, kind: str, turn: int) -> Notification | None:
    """One notification about `match` at version `turn`: a row in the player's inbox, an email unless
    they do not want this kind by email (`status` says so), a push to each of their devices unless
    they do not want it by push (push/). Nothing for a player who muted the match.

    Safe to call twice: the unique (recipient, match, turn, kind) row makes the second a no-op."""
    if recipient is None or not recipient.is_active:
        return None
    if MatchMute.objects.filter(user=recipient, match=match).exists():
        return None  # muted: nothing at all about this match
    return _write(recipient, kind, match=match, turn=turn)


def notify_tournament(tournament, recipient, kind: str) -> Notification | None:
    """One notification about a tournament (notifications.models.TOURNAMENT_KINDS), through the
    same channels and preferences as a match's. Called inside the caller's transaction; the email
    and pushes go once it commits. Safe to call twice (one row per tournament, kind and player)."""
    if recipient is None or not recipient.is_active:
        return None
    return _write(recipient, kind, tournament=tournament, turn=0)


def _write(recipient, kind: str, turn: int, match=None, tournament=None) -> Notification | None:
    choice = preference(recipient, kind) if recipient.email else "never"
    status = {"each": Notification.Status.PENDING, "digest": Notification.Status.DIGEST}.get(
        choice, Notification.Status.SKIPPED
    )
    try:
        with transaction.atomic():
            row = Notification.objects.create(
                match=match,
                tournament=tournament,
                recipient=recipient,
                kind=kind,
                turn=turn,
                status=status,
                in_digest=status == Notification.Status.DIGEST,
                error="not wanted by email" if status == Notification.Status.SKIPPED else "",
            )
    except IntegrityError:
        return None
    if status == Notification.Status.PENDING:
        queue_on_commit("notifications.tasks.send_notification", row.pk)
    deliver(row)  # the other channels: push's devices (push/apps.py registers it)
    return row
