"""Build the emails. Every email links to the board and the preferences page and carries a
one-click unsubscribe (RFC 8058); no link in an email acts when opened."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notifications.models import Kind

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """Raises signing.BadSignature for a forged or damaged token."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or data.get("k") not in Kind.values or not isinstance(data.get("u"), int):
        raise signing.BadSignature("not an unsubscribe token")
    return data["u"], data["k"]


def build_email(recipient, kind: str, context: dict, unsubscribe_kind: str | None = None) -> EmailMultiAlternatives:
    """Render templates/emails/<kind>.txt, .html and _subject.txt for one recipient."""
    unsubscribe_kind = unsubscribe_kind or kind
    unsubscribe_url = absolute(reverse("unsubscribe", args=[unsubscribe_token(recipient.pk, unsubscribe_kind)]))
    context = {
        **context,
        "recipient_name": recipient.public_name,
        "preferences_url": absolute(reverse("email_preferences")),
        "unsubscribe_url": unsubscribe_url,
        "site_url": settings.SITE_URL,
    }
    with timezone.override(_zone(recipient.time_zone)):  # times in the recipient's own zone
        subject = render_to_string(f"emails/{kind}_subject.txt", context).strip().replace("\n", " ")
        text = render_to_string(f"emails/{kind}.txt", context)
        html = render_to_string(f"emails/{kind}.html", context)
    message = EmailMultiAlternatives(
        subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject,
        body=text,
        to=[recipient.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    message.attach_alternative(html, "text/html")
    return message


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
