from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Public API"

    def ready(self) -> None:
        from api import announce

        announce.connect()  # the account stream's chat events (api/streams.py)
        from accounts.parts import register_account_part
        from api.account_parts import export_tokens, revoke_tokens

        register_account_part("api_tokens", export=export_tokens, close=revoke_tokens)  # closing revokes them
