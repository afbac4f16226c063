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
        from accounts.parts import register_account_part
        from push.account_parts import export_devices, remove_devices

        register_account_part("push_devices", export=export_devices, close=remove_devices)  # closing removes them
