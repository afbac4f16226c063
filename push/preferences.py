"""Which kinds a player wants pushed to their devices: kept in notifications.models, beside the email
choices, so that the preferences page shows both without importing push."""

from notifications.models import PUSH_DEFAULTS, wants_push

__all__ = ["PUSH_DEFAULTS", "wants_push"]
