from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"

    def ready(self) -> None:
        from games.presenters import add_view_part
        from moderation import admin_matches  # noqa: F401 (registers the Match admin; games/admin.py before)
        from moderation.presenters import chat_part

        add_view_part(chat_part)  # the chat on the board, for those who may read it
