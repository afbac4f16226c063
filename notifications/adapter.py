from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from accounts.adapter import AccountAdapter as AccountsAdapter
from games.queue import queue_on_commit

SITE_NAME = "Dizzysite"


@dataclass(frozen=True)
class Site:
    """What allauth's emails say of the site ("Hello from Dizzysite!"): its name, and its address as
    SITE_URL gives it (the site has no sites framework to ask)."""

    name: str
    domain: str


def this_site() -> Site:
    return Site(SITE_NAME, urlsplit(settings.SITE_URL).netloc)


class AccountAdapter(AccountsAdapter):
    """allauth's emails (verification, password reset) are rendered here and sent by the worker, the way
    the site's own emails are (so it lives in notifications, and accounts imports no email code)."""

    def send_mail(self, template_prefix, email, context):
        message = self.render_mail(template_prefix, email, {**context, "current_site": this_site()})
        html = next((content for content, mime in getattr(message, "alternatives", []) if mime == "text/html"), None)
        queue_on_commit(
            "notifications.tasks.send_account_email",
            message.subject,
            message.body,
            html,
            list(message.to),
            message.from_email,
        )
