"""The chat on a match's board: moderation's part of the PlayerView (games.presenters.add_view_part,
registered in ModerationConfig.ready())."""

from __future__ import annotations

from typing import Any

from games.models import Match, Seat
from games.presenters import PlayerView
from games.reads import held_seat
from moderation.models import ChatMessage

CHAT_ON_BOARD = 50


def chat_part(match: Match, user, info: PlayerView, seats: list[Seat]) -> None:
    """The players read and write the chat; spectators read it where the match allows them to."""
    is_player = held_seat(seats, user) is not None
    if is_player or match.spectators_read_chat:
        info.can_chat = is_player and match.status != Match.Status.CANCELLED
        info.chat = _chat(match, user)


def _chat(match: Match, user) -> list[dict[str, Any]]:
    messages = ChatMessage.objects.filter(match=match, hidden=False).select_related("author").order_by("-id")
    return [
        {
            "id": m.pk,
            "author": m.author.public_name,
            "username": m.author.username,
            "text": m.text,
            "created": m.created,
            "mine": user.is_authenticated and m.author_id == user.pk,
        }
        for m in reversed(messages[:CHAT_ON_BOARD])
    ]
