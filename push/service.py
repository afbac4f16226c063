"""Write push delivery rows inside the caller's transaction, beside the notification row."""

from __future__ import annotations

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
    from push.tasks import send_push

    for delivery in deliveries:
        send_push.delay_on_commit(delivery.pk)
    return deliveries
