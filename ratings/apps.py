from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.events import MatchFinished, subscribe
        from ratings.actions import rate_on_finish

        subscribe(MatchFinished, rate_on_finish, during=True)  # rated in the transaction that ends it
