from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.events import MatchFinished, subscribe
        from games.presenters import add_view_part
        from ratings.actions import rate_on_finish
        from ratings.presenters import rating_part
        from ratings.records import count_on_finish

        subscribe(MatchFinished, rate_on_finish, during=True)  # rated in the transaction that ends it
        subscribe(MatchFinished, count_on_finish, during=True)  # the players' records, in the same transaction
        add_view_part(rating_part)  # a finished match's board shows its rating changes
        from accounts.parts import register_account_part
        from ratings.account_parts import export_ratings

        register_account_part("rating_history", export=export_ratings)  # kept after the erasure, as they are
