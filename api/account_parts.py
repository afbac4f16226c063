"""The API's part of a player's account (accounts.parts, registered in ApiConfig.ready()): their
tokens by name and scopes (never a secret nor its first characters); closing the account revokes
them and ends the calendar feed's address."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from api.models import ApiToken, CalendarFeed


def export_tokens(user: User) -> list[dict[str, Any]]:
    return [
        {
            "name": token.name,
            "scopes": token.scopes,
            "created": token.created.isoformat(),
            "last_used": token.last_used.isoformat() if token.last_used else None,
            "revoked": token.revoked.isoformat() if token.revoked else None,
        }
        for token in ApiToken.objects.filter(user=user).order_by("id")
    ]


def revoke_tokens(user: User) -> None:
    for token in ApiToken.objects.filter(user=user).live():
        token.revoke()  # its open streams end after the commit too
    CalendarFeed.objects.filter(user=user).delete()
