"""Write push delivery rows inside the caller's transaction, beside the notification row."""

from __future__ import annotations

from games.queue import queue_on_commit
from push.models import PushDelivery, PushSubscription
from push.preferences import wants_push


def queue_pushes(row) -> list[PushDelivery]:
    """One delivery per device of the recipient, sent by the worker once the caller commits."""
    if not wants_push(row.recipient, row.kind):
        return []
    devices = list(PushSubscription.objects.filter(user_id=row.recipient_id).values_list("pk", flat=True))
    if not devices:
        return []
    deliveries = PushDelivery.objects.bulk_create(
        [PushDelivery(notification=row, subscription_id=device) for device in devices]
    )
    for delivery in deliveries:
        queue_on_commit("push.tasks.send_push", delivery.pk)
    return deliveries


def queue_pushes_many(rows) -> list[PushDelivery]:
    """queue_pushes for many notification rows at once, in two queries (notifications.service.notify_all)."""
    wanted = [row for row in rows if wants_push(row.recipient, row.kind)]
    if not wanted:
        return []
    devices: dict[int, list[int]] = {}
    subscriptions = PushSubscription.objects.filter(user_id__in={row.recipient_id for row in wanted})
    for user_id, device in subscriptions.values_list("user_id", "pk"):
        devices.setdefault(user_id, []).append(device)
    deliveries = PushDelivery.objects.bulk_create(
        [
            PushDelivery(notification=row, subscription_id=device)
            for row in wanted
            for device in devices.get(row.recipient_id, [])
        ]
    )
    for delivery in deliveries:
        queue_on_commit("push.tasks.send_push", delivery.pk)
    return deliveries
