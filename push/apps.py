from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Web push and inbox"

    def ready(self) -> None:
        from notifications.channels import register_channel
        from push.service import queue_pushes, queue_pushes_many

        register_channel(
            queue_pushes, many=queue_pushes_many
        )  # every notification row: one push per device that wants it
