"""Build the emails. Every email links to the board and the preferences page and carries a
one-click unsubscribe (RFC 8058); no link in an email acts when opened."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from notifications.models import Kind

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def unsubscribe_token(user_id: int, kinds: str | list[str]) -> str:
    """One kind for a single email; every kind a digest held for a digest."""
    kinds = [kinds] if isinstance(kinds, str) else sorted(kinds)
    return signing.dumps({"u": user_id, "k": kinds}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, list[str]]:
    """(user id, kinds). Raises signing.BadSignature for a forged or damaged token.

    Tokens of emails sent before digests named all their kinds hold one kind as a string."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise signing.BadSignature("not an unsubscribe token")
    kinds = [data.get("k")] if isinstance(data.get("k"), str) else data.get("k")
    if not isinstance(kinds, list) or not kinds or not all(kind in Kind.values for kind in kinds):
        raise signing.BadSignature("not an unsubscribe token")
    return data["u"], kinds


def build_email(
    recipient, kind: str, context: dict, unsubscribe_kinds: list[str] | None = None
) -> EmailMultiAlternatives:
    """Render templates/emails/<kind>.txt, .html and _subject.txt for one recipient.

    Its one-click unsubscribe stops `unsubscribe_kinds` (a digest: every kind it lists), else `kind`."""
    token = unsubscribe_token(recipient.pk, unsubscribe_kinds or kind)
    unsubscribe_url = absolute(reverse("unsubscribe", args=[token]))
    context = {
        **context,
        "recipient_name": recipient.public_name,
        "preferences_url": absolute(reverse("email_preferences")),
        "unsubscribe_url": unsubscribe_url,
        "site_url": settings.SITE_URL,
    }
    # Times in the recipient's own zone, words in the recipient's own language (not the sender's).
    with timezone.override(_zone(recipient.time_zone)), translation.override(recipient_language(recipient)):
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


def recipient_language(recipient) -> str:
    """The member's own language (accounts.User.language), else the site's default (English)."""
    language = getattr(recipient, "language", "")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
