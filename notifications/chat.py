"""Chat messages as notifications: one unread entry per match and reader, whatever number
of messages follow; never to the writer, nor to a reader who blocks the writer. The chat itself lives
in moderation/, which queues `notifications.tasks.notify_chat` when a message is committed; this module reads its
rows through the app registry, so notifications never imports moderation."""

from __future__ import annotations

from django.apps import apps
from django.db import transaction

from games.models import Match
from notifications.models import Kind, Notification
from notifications.service import notify


def _messages():
    return apps.get_model("moderation", "ChatMessage").objects.filter(hidden=False)


def write_chat_notifications(message_id: int) -> int:
    """Tell the match's other players about one message: a new entry for a reader without an unread
    one, else nothing (the unread entry counts this message too). Safe to run twice. Returns the
    number of entries written."""
    with transaction.atomic():
        message = _messages().filter(pk=message_id).first()
        if message is None:
            return 0  # hidden meanwhile, or gone
        # The match row's lock makes the messages of one match take turns here: one entry per reader.
        match = Match.objects.select_for_update().get(pk=message.match_id)
        written = 0
        for seat in match.seats.filter(accepted=True, user__isnull=False).select_related("user"):
            reader = seat.user
            if seat.is_bot or reader.pk == message.author_id:
                continue
            if reader.blocks.filter(blocked_id=message.author_id).exists():
                continue  # the reader blocks the writer
            waiting = Notification.objects.filter(
                recipient=reader, match=match, kind=Kind.CHAT, read_at__isnull=True, deleted_at__isnull=True
            )
            if not waiting.exists() and notify(match, reader, Kind.CHAT, message.pk):
                written += 1
        return written


def unread_chat(row: Notification) -> tuple[list[str], int]:
    """(the writers' names, the number of messages) an entry tells of: those from its first message on,
    not the reader's own, not hidden, none from a player the reader blocks."""
    blocked = row.recipient.blocks.values("blocked_id")
    messages = (
        _messages()
        .filter(match_id=row.match_id, pk__gte=row.turn)
        .exclude(author_id=row.recipient_id)
        .exclude(author_id__in=blocked)
        .select_related("author")
        .order_by("pk")
    )
    authors: list[str] = []
    count = 0
    for message in messages:
        count += 1
        if message.author.public_name not in authors:
            authors.append(message.author.public_name)
    return authors, count
