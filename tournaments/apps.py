from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from notifications.context import add_match_context
        from ratings.presenters import add_profile_part
        from tournaments.reads import profile_context, round_context

        add_match_context(round_context)  # a tournament match's first email and push name its round
        add_profile_part(profile_context)  # a player's profile lists their tournaments and titles
