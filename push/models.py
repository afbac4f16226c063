"""Web push: one subscription per browser or phone, one delivery row per notification and device."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """What a browser's PushManager.subscribe() answered; the endpoint is the push service's address
    for this one device, the keys encrypt what is sent to it (RFC 8291)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    label = models.CharField(max_length=80, help_text="the browser and system it was made on")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, help_text="when a push last reached its push service")

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.label} of {self.user}"

    @property
    def name(self) -> str:
        """The label in the reader's language ("Safari op iPhone")."""
        from push.devices import display_label

        return display_label(self.label)

    def info(self) -> dict:
        """What pywebpush needs to reach this device."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushDelivery(models.Model):
    """One notification row pushed to one device: written with the row, sent after commit, at most once."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent"
        FAILED = "failed", "Failed"

    notification = models.ForeignKey(
        "notifications.Notification", on_delete=models.CASCADE, related_name="push_deliveries"
    )
    # A device the push service reports gone is deleted, and its deliveries with it.
    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "push deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "subscription"], name="one_push_per_notification_and_device"
            )
        ]

    def __str__(self) -> str:
        return f"push of notification {self.notification_id} to {self.subscription_id}"
