from allauth.account.adapter import DefaultAccountAdapter

from games.queue import queue_on_commit


class AccountAdapter(DefaultAccountAdapter):
    """allauth's emails (verification, password reset) are rendered here and sent by the worker, the way
    the site's own emails are (so it lives in notifications, and accounts imports no email code)."""

    def send_mail(self, template_prefix, email, context):
        message = self.render_mail(template_prefix, email, context)
        html = next((content for content, mime in getattr(message, "alternatives", []) if mime == "text/html"), None)
        queue_on_commit(
            "notifications.tasks.send_account_email",
            message.subject,
            message.body,
            html,
            list(message.to),
            message.from_email,
        )
