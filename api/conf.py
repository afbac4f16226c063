"""The API's tunables, read at call time so tests can change them with the `settings` fixture."""

from __future__ import annotations

from django.conf import settings

DEFAULTS = {
    "DIZZY_API_RATE_LIMIT": 120,  # requests per token per window
    "DIZZY_API_RATE_WINDOW": 60,  # seconds
    "DIZZY_API_MAX_BODY_BYTES": 16 * 1024,
    "DIZZY_API_LONGPOLL_SECONDS": 30.0,
    # The long poll waits on the live channel; it reads the match again this often all the same
    # (a pub/sub message lost while Redis restarted delays an answer by this much at most).
    "DIZZY_API_POLL_INTERVAL": 10.0,
}


def get(name: str):
    return getattr(settings, name, DEFAULTS[name])
