from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"

    def ready(self) -> None:
        from games.presenters import add_view_part
        from moderation import admin_matches  # noqa: F401 (registers the Match admin; games/admin.py before)
        from moderation.presenters import chat_part

        add_view_part(chat_part)  # the chat on the board, for those who may read it
        from accounts.parts import register_account_part
        from moderation.account_parts import erase_chat, export_blocks, export_chat, export_reports

        register_account_part("chat_messages", export=export_chat, erase=erase_chat)  # the texts go at the erasure
        register_account_part("blocks", export=export_blocks)
        register_account_part("reports", export=export_reports)
