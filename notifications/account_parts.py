"""The notifications' part of a player's account (accounts.parts, registered in
NotificationsConfig.ready()): their inbox, in the copy of their data."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from notifications.models import Notification


def export_notifications(user: User) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(recipient=user).order_by("id")
    return [
        {
            "kind": row.kind,
            "match": row.match_id,
            "tournament": row.tournament_id,
            "time": row.created.isoformat(),
            "status": row.status,
            "read": row.read_at.isoformat() if row.read_at else None,
        }
        for row in rows
    ]
