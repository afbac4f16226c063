"""Checking what a browser sends when it subscribes, and naming the device for the settings list."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from urllib.parse import urlsplit

from django.conf import settings

BROWSERS = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
]
KEY = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class BadSubscription(ValueError):
    pass


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough to tell one's devices apart, and nothing more of the header."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "A browser")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return f"{browser} on {system}" if system else browser


def clean_subscription(data: object) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) from PushSubscription.toJSON(), or BadSubscription."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise BadSubscription("not a push subscription")
    endpoint, keys = data.get("endpoint"), data["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(endpoint, str) or len(endpoint) > 1000 or not _allowed_endpoint(endpoint):
        raise BadSubscription("the endpoint is not a push service's https address")
    if _key_length(p256dh) != 65 or _key_length(auth) != 16:
        raise BadSubscription("the subscription's keys are not P-256 and 16-byte auth keys")
    return endpoint, p256dh, auth


def _allowed_endpoint(endpoint: str) -> bool:
    """The worker posts to this address, so it must be a push service on the internet: https, a host
    name, not an address in our own network. With PUSH_ALLOW_LOCAL_ENDPOINTS (on with DEBUG: make run,
    the tests' own push service) http on the loopback address is allowed too."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if settings.PUSH_ALLOW_LOCAL_ENDPOINTS and address and address.is_loopback:
        return parts.scheme in ("http", "https")
    return parts.scheme == "https" and address is None and host not in ("", "localhost") and "." in host


def _key_length(value: object) -> int:
    if not isinstance(value, str) or not KEY.match(value) or len(value) > 120:
        return -1
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return -1
