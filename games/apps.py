from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts.parts import register_account_part
        from games import checks  # noqa: F401 (registers the system check)
        from games.account_parts import close_matches, erase_from_matches, export_matches

        # a copy of the player's matches; closing resigns and cancels; the erasure takes the notes and names
        register_account_part("matches", export=export_matches, close=close_matches, erase=erase_from_matches)
