from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"

    def ready(self) -> None:
        from notifications import listeners

        listeners.subscribe_all()  # the match events' rows: invited, started, your turn, reminder, finished...
