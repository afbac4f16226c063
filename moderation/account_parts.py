"""The moderation app's part of a player's account (accounts.parts, registered in
ModerationConfig.ready()): the chat they wrote, the blocks and reports they made; the erasure
empties their chat messages' texts (the rows stay, for the reports and the moderators' log)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from moderation.models import Block, ChatMessage, Report


def export_chat(user: User) -> list[dict[str, Any]]:
    messages = ChatMessage.objects.filter(author=user).order_by("id")
    return [{"match": m.match_id, "text": m.text, "time": m.created.isoformat(), "hidden": m.hidden} for m in messages]


def export_blocks(user: User) -> list[dict[str, Any]]:
    blocks = Block.objects.filter(blocker=user).select_related("blocked").order_by("id")
    return [{"player": b.blocked.public_name, "since": b.created.isoformat()} for b in blocks]


def export_reports(user: User) -> list[dict[str, Any]]:
    reports = Report.objects.filter(reporter=user).order_by("id")
    return [
        {"chat_message": r.message_id, "reason": r.reason, "status": r.status, "time": r.created.isoformat()}
        for r in reports
    ]


def erase_chat(user: User) -> None:
    ChatMessage.objects.filter(author=user).update(text="")
