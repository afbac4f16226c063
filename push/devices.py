"""Checking what a browser sends when it subscribes, and naming the device for the settings list."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import pgettext

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
A_BROWSER = "A browser"  # a browser the User-Agent does not name
KEY = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class BadSubscription(ValueError):
    pass


def device_label(user_agent: str) -> str:
    """ "Firefox on Android": enough to tell one's devices apart, and nothing more of the header.
    Kept in English; `display_label` says it in the reader's language."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), A_BROWSER)
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return f"{browser} on {system}" if system else browser


def display_label(label: str) -> str:
    """A kept label in the active language: "Safari op iPhone", "Een browser"."""
    browser, _, system = label.partition(" on ")
    if browser == A_BROWSER:
        browser = pgettext("a device", "A browser")  # the literal: makemessages reads it
    if not system:
        return browser
    return pgettext("a device", "{browser} on {system}").format(browser=browser, system=system)


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
    """The worker posts to this address, so it must be one of the browsers' push services
    (settings.PUSH_SERVICE_HOSTS), over https on the standard port. With PUSH_ALLOW_LOCAL_ENDPOINTS
    (on with DEBUG: make run, the tests' own push service) http on the loopback address is allowed too."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").rstrip(".").lower()
    if settings.PUSH_ALLOW_LOCAL_ENDPOINTS and _loopback_literal(host):
        return parts.scheme in ("http", "https")
    return parts.scheme == "https" and port in (None, 443) and push_service_host(host)


def push_service_host(host: str) -> bool:
    """Whether `host` is a push service of settings.PUSH_SERVICE_HOSTS ("*.name": any name under it)."""
    for allowed in settings.PUSH_SERVICE_HOSTS:
        allowed = allowed.lower()
        if allowed.startswith("*."):
            if host.endswith(allowed[1:]) and len(host) > len(allowed) - 1:
                return True
        elif host == allowed:
            return True
    return False


def _loopback_literal(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def refusal_at_send(endpoint: str) -> str:
    """Why the worker must not post to this endpoint now (empty: post). Checked again when sending:
    the settings may have changed since the device subscribed, and a name may now resolve into our own
    network (loopback, private, link-local, reserved), which is refused. Only a loopback address written
    as such passes, with PUSH_ALLOW_LOCAL_ENDPOINTS; a name that resolves to one never does.
    Raises OSError when the name does not resolve (worth trying again)."""
    if not _allowed_endpoint(endpoint):
        return "the endpoint is not one of the push services allowed"
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").rstrip(".")
    if settings.PUSH_ALLOW_LOCAL_ENDPOINTS and _loopback_literal(host):
        return ""
    for *_, address in socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP):
        if _internal(ipaddress.ip_address(address[0].split("%")[0])):
            return f"the push service's name resolves to an address in our own network ({address[0]})"
    return ""


def _internal(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address
    return (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
        or not address.is_global
    )


def _key_length(value: object) -> int:
    if not isinstance(value, str) or not KEY.match(value) or len(value) > 120:
        return -1
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return -1
