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
