from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Public API"

    def ready(self) -> None:
        from api import announce

        announce.connect()  # the account stream's chat events (api/streams.py)
