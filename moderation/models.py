"""Chat, reports, blocks and the moderators' log."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatMessage(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        HIDDEN = "hidden", "Message hidden"
        DISMISSED = "dismissed", "Dismissed"

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reporter")]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter}"


class Block(models.Model):
    """`blocker` no longer gets invitations from `blocked`, who cannot join the blocker's matches."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class ModerationLog(models.Model):
    """Every moderator action, with who and why (also staff reading hidden information)."""

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=40)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.moderator}: {self.action}"
