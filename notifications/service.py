"""Write notification rows inside the caller's transaction; the sending happens after commit."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from notifications.models import Notification, preference


def notify(match, recipient, kind: str, turn: int) -> Notification | None:
    """One email about `match` at version `turn`, unless the player never wants this kind.

    Safe to call twice: the unique (recipient, match, turn, kind) row makes the second a no-op."""
    if recipient is None or not recipient.email or not recipient.is_active:
        return None
    choice = preference(recipient, kind)
    if choice == "never":
        return None
    status = Notification.Status.DIGEST if choice == "digest" else Notification.Status.PENDING
    try:
        with transaction.atomic():
            row = Notification.objects.create(
                match=match,
                recipient=recipient,
                kind=kind,
                turn=turn,
                status=status,
                in_digest=status == Notification.Status.DIGEST,
            )
    except IntegrityError:
        return None
    if status == Notification.Status.PENDING:
        from notifications.tasks import send_notification

        send_notification.delay_on_commit(row.pk)
    return row
