from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import checks  # noqa: F401 (registers the system check)
