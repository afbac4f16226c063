"""Who is looking at a board now, kept in the cache: a page view writes nothing to the database.

The board polls every few seconds while it is open, and each poll renews the mark; a "your turn"
email is not sent to a player whose mark is fresh (notifications.tasks). The cache must be shared by
the web processes and the workers: Redis in production (CACHE_URL), files under var/ for `make run`.
"""

from __future__ import annotations

from django.core.cache import cache

PRESENCE_SECONDS = 20  # longer than the slowest poll, so an open board stays marked


def _key(match_id: int, user_id: int) -> str:
    return f"watching:{match_id}:{user_id}"


def mark_watching(match_id: int, user_id: int) -> None:
    cache.set(_key(match_id, user_id), 1, PRESENCE_SECONDS)


def mark_watching_many(pairs: list[tuple[int, int]]) -> None:
    """Mark each (match, user) at once: the open streams' heartbeats, one round trip for all."""
    if pairs:
        cache.set_many({_key(match_id, user_id): 1 for match_id, user_id in pairs}, PRESENCE_SECONDS)


def is_watching(match_id: int, user_id: int) -> bool:
    return cache.get(_key(match_id, user_id)) is not None
