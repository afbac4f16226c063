"""Writing in a match's chat through the API (lichess: POST /api/board/game/{id}/chat).

The board's own action (moderation.actions.post_chat): the same rules on who may write (the match's
players, not in a cancelled match), the same limits, the same moderation. Reading the chat is in
GET matches/{id}/view, as on the board."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from api.schemas import In
from api.shared import ERRORS, MatchId, get_match
from moderation.actions import MAX_CHAT_LENGTH, post_chat

router = Router(tags=["chat"])

# What the server stores: some character that is not a space, and no NUL (api/guard.py; a lone
# surrogate is no JSON a client can send).
CHAT_TEXT = r"^[^\x00]*[^\s\x00\x1c-\x1f\x85][^\x00]*$"  # \x1c-\x1f, \x85: spaces to str.strip, not to \s


class ChatIn(In):
    text: str = Field(
        min_length=1,
        max_length=MAX_CHAT_LENGTH,
        description="The message; spaces around it are trimmed",
        json_schema_extra={"pattern": CHAT_TEXT},  # documented for clients; post_chat is the judge
    )


class ChatOut(Schema):
    id: int
    author: str
    username: str
    text: str
    created: datetime


@router.post(
    "/matches/{match_id}/chat",
    response={201: ChatOut, **ERRORS},
    summary="Write in a match's chat: its players only, as on the board (403 for anyone else)",
)
def chat(request: HttpRequest, match_id: MatchId, body: ChatIn):
    get_match(match_id)  # 404 for no such match (post_chat's own word for it is a 400)
    message = post_chat(match_id, request.auth, body.text)
    author = request.auth
    return Status(
        201,
        {
            "id": message.pk,
            "author": author.public_name,
            "username": author.username,
            "text": message.text,
            "created": message.created,
        },
    )
