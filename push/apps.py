from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Web push and inbox"

    def ready(self) -> None:
        from notifications.channels import register_channel
        from push.service import queue_pushes

        register_channel(queue_pushes)  # every notification row: one push per device that wants it
