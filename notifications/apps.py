from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"

    def ready(self) -> None:
        from notifications import listeners

        listeners.subscribe_all()  # the match events' rows: invited, started, your turn, reminder, finished...
        from accounts.parts import register_account_part
        from notifications.account_parts import export_notifications

        register_account_part("notifications", export=export_notifications)  # the inbox, in a copy of one's data
