from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from notifications.context import add_match_context
        from tournaments.reads import round_context

        add_match_context(round_context)  # a tournament match's first email and push name its round
