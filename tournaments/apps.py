from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from moderation.actions import ban_hooks
        from notifications.context import add_match_context
        from ratings.presenters import add_profile_part
        from tournaments.actions import do_forfeit_banned
        from tournaments.reads import profile_context, round_context

        add_match_context(round_context)  # a tournament match's first email and push name its round
        add_profile_part(profile_context)  # a player's profile lists their tournaments and titles
        if do_forfeit_banned not in ban_hooks:
            ban_hooks.append(do_forfeit_banned)  # ruling TRN-8: a ban forfeits the running tournament matches
        from accounts.parts import register_account_part
        from tournaments.account_parts import export_entries, leave_tournaments

        # closing the account leaves the tournaments not over (withdrawing from a running one)
        register_account_part("tournament_entries", export=export_entries, close=leave_tournaments)
