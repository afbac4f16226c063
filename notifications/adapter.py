from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    """allauth's emails (verification, password reset) are rendered here and sent by the worker."""

    def send_mail(self, template_prefix, email, context):
        from notifications.tasks import send_account_email

        message = self.render_mail(template_prefix, email, context)
        html = next((content for content, mime in getattr(message, "alternatives", []) if mime == "text/html"), None)
        send_account_email.delay_on_commit(message.subject, message.body, html, list(message.to), message.from_email)
