from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
