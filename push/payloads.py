"""What a push says: only what the recipient could see on the board (ALL-3), never a hidden card,
a seed or another seat's private log. The hidden-information audit renders these for every seat.
Like an email, a push speaks its recipient's language (issue 19), whoever caused it."""

from __future__ import annotations

import zoneinfo

from django.urls import reverse
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext, gettext_noop

from notifications.emails import absolute, recipient_language
from notifications.models import Kind, Notification
from notifications.tasks import email_context

TITLES = {
    Kind.YOUR_TURN: gettext_noop("Your turn in {match_name}"),
    Kind.REMINDER: gettext_noop("Your time is running out in {match_name}"),
    Kind.INVITED: gettext_noop("Invitation to {match_name}"),
    Kind.STARTED: gettext_noop("{match_name} has started"),
    Kind.FINISHED: gettext_noop("{match_name} is over"),
    Kind.HANDED_TO_BOT: gettext_noop("Your seat in {match_name} went to a bot"),
}


def push_payload(row: Notification) -> dict:
    """The JSON the service worker shows: title, body, the address a tap opens, and a tag so a newer
    push about the same match replaces the older one on the device."""
    with translation.override(recipient_language(row.recipient)):
        return _payload(row)


def _payload(row: Notification) -> dict:
    context = email_context(row)  # the same facts the email may tell, worked out by the same code
    lines = []
    if context["others"]:
        lines.append(gettext("Against {names}.").format(names=", ".join(context["others"])))
    if row.kind == Kind.INVITED:
        invites = gettext("{name} invites you to a match of {game}.")
        lines = [invites.format(name=context["invited_by"], game=context["game_name"])]
    if row.kind == Kind.FINISHED and context["end_reason"]:
        lines.append(context["end_reason"])
    if row.kind in (Kind.YOUR_TURN, Kind.REMINDER) and context["deadline"]:
        lines.append(gettext("Move by {when}.").format(when=_in_zone(context["deadline"], row.recipient.time_zone)))
    # A tap opens the inbox entry, which marks it read and goes on to the board.
    url = absolute(reverse("inbox_open", args=[row.pk])) if row.pk else context["board_url"]
    return {
        "title": gettext(TITLES[Kind(row.kind)]).format(match_name=context["match_name"]),
        "body": " ".join(lines),
        "url": url,
        "tag": f"match-{row.match_id}",
    }


def _in_zone(moment, zone_name: str) -> str:
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return dateformat.format(timezone.localtime(moment, zone), "D j M, H:i T")
