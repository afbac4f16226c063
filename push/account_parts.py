"""The push app's part of a player's account (accounts.parts, registered in PushConfig.ready()): the
devices they turned pushes on for, their push service's address shortened; closing the account
removes them."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from accounts.models import User
from push.models import PushSubscription


def short_endpoint(endpoint: str) -> str:
    """The push service and the first characters of the device's own part: enough to know it again,
    too little to push to it."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}{parts.path[:12]}…"


def export_devices(user: User) -> list[dict[str, Any]]:
    return [
        {
            "device": device.label,
            "endpoint": short_endpoint(device.endpoint),
            "added": device.created.isoformat(),
            "last_used": device.last_used.isoformat() if device.last_used else None,
        }
        for device in PushSubscription.objects.filter(user=user).order_by("id")
    ]


def remove_devices(user: User) -> None:
    PushSubscription.objects.filter(user=user).delete()
