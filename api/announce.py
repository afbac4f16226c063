"""What the API's account stream hears beyond the live layer's own events (live/hooks.py: a match's
revision, "turns", "bell", "close"): a chat message for each of the match's other players ("chat"),
and a revoked token ("revoked"). Published after commit, with ids only (live.broadcast.publish_user)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from live.broadcast import publish_user


def chat_readers(message: Any) -> list[int]:
    """Who is told of a new message: the match's other seated players, not those who block its
    writer (notifications/chat.py's rule)."""
    from games.models import Seat
    from moderation.models import Block

    blockers = Block.objects.filter(blocked_id=message.author_id).values("blocker_id")
    seats = Seat.objects.filter(match_id=message.match_id, accepted=True, user__isnull=False)
    readers = seats.exclude(user_id=message.author_id).exclude(user_id__in=blockers)
    return sorted(set(readers.values_list("user_id", flat=True)))


def announce_chat(message: Any) -> None:
    for user_id in chat_readers(message):
        publish_user(user_id, "chat", match=message.match_id)


def chat_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created and not instance.hidden:
        transaction.on_commit(partial(announce_chat, instance), robust=True)


def token_revoked(user_id: int, token_id: int) -> None:
    """Called by ApiToken.revoke(): that token's open streams end at once (a "revoked" event, not a
    "close": the board's streams end on a "close" that names no session)."""
    transaction.on_commit(partial(publish_user, user_id, "revoked", token=token_id), robust=True)


def connect() -> None:
    from moderation.models import ChatMessage

    post_save.connect(chat_saved, sender=ChatMessage, dispatch_uid="api.chat_saved")
