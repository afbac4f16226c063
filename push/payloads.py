"""What a push says: only what the recipient could see on the board (ALL-3), never a hidden card,
a seed or another seat's private log. The hidden-information audit renders these for every seat.
Like an email, a push speaks its recipient's language, whoever caused it."""

from __future__ import annotations

import zoneinfo

from django.core import signing
from django.urls import reverse
from django.utils import dateformat, formats, timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

from notifications.context import email_context
from notifications.emails import absolute, recipient_language
from notifications.models import Kind, Notification

TITLES = {
    Kind.YOUR_TURN: gettext_noop("Your turn in {match_name}"),
    Kind.REMINDER: gettext_noop("Your time is running out in {match_name}"),
    Kind.INVITED: gettext_noop("Invitation to {match_name}"),
    Kind.STARTED: gettext_noop("{match_name} has started"),
    Kind.FINISHED: gettext_noop("{match_name} is over"),
    Kind.HANDED_TO_BOT: gettext_noop("Your seat in {match_name} went to a bot"),
    Kind.CHAT: gettext_noop("Chat in {match_name}"),
    Kind.TOURNAMENT_ENTRY: gettext_noop("You are in {match_name}"),
    Kind.TOURNAMENT_STARTED: gettext_noop("{match_name} has started"),
    Kind.TOURNAMENT_OVER: gettext_noop("{match_name} is over"),
    Kind.TOURNAMENT_ROUND: gettext_noop("Your new tournament match: {match_name}"),
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
        lines.append(gettext("Against {names}.").format(names=join_names(context["others"])))
    if row.kind == Kind.INVITED:
        invites = gettext("{name} invites you to a match of {game}.")
        lines = [invites.format(name=context["invited_by"], game=context["game_name"])]
    if row.kind == Kind.FINISHED and row.match.is_over:
        lines = _finished_lines(result_sentence(row.match, row.recipient_id), context["end_reason"].strip())
    if row.kind in (Kind.YOUR_TURN, Kind.REMINDER, Kind.TOURNAMENT_ROUND) and context["deadline"]:
        lines.append(gettext("Move by {when}.").format(when=_in_zone(context["deadline"], row.recipient.time_zone)))
    if row.kind == Kind.CHAT:
        lines = [chat_line(row)]
    if context.get("tournament_name") and row.match_id is not None:
        lines.insert(0, round_line(context))
    if row.match_id is None:
        lines = [tournament_line(row, context)]
    payload = {
        "title": gettext(TITLES[Kind(row.kind)]).format(match_name=context["match_name"]),
        "body": " ".join(line for line in lines if line),
        "url": context["board_url"],
        "tag": topic(row),
    }
    if row.pk:  # a tap opens the board; the service worker posts here to mark the entry read
        payload["read"] = absolute(reverse("inbox_seen", args=[seen_token(row.pk)]))
    return payload


SEEN_SALT = "push.inbox.seen"


def seen_token(notification_id: int) -> str:
    """The entry's number, signed (push.views.inbox_seen reads it); the same each time (a push's
    payload depends on nothing else)."""
    return signing.Signer(salt=SEEN_SALT).sign(str(notification_id))


def chat_line(row: Notification) -> str:
    """ "bob wrote 3 messages.": who wrote since the entry was made, never their words (a message a
    moderator hides later must not stay on a lock screen), nor anyone the reader blocks."""
    from notifications.chat import unread_chat

    authors, count = unread_chat(row)
    if not count:
        return ""
    return ngettext("{names} wrote a message.", "{names} wrote {count} messages.", count).format(
        names=join_names(authors), count=count
    )


def round_line(context: dict) -> str:
    """A tournament's new match: "Round 2 of Spring Swiss." """
    return gettext("Round {number} of {tournament}.").format(
        number=context["round_number"], tournament=context["tournament_name"]
    )


def tournament_line(row: Notification, context: dict) -> str:
    """What a tournament's push says: only what its public page shows."""
    if row.kind == Kind.TOURNAMENT_ENTRY and context.get("championship"):
        return gettext("You start in its lowest division at its next season.")
    if row.kind == Kind.TOURNAMENT_ENTRY:
        when = _in_zone(context["starts_at"], row.recipient.time_zone)
        return gettext("A tournament of {game}; it starts {when}.").format(game=context["game_name"], when=when)
    if row.kind == Kind.TOURNAMENT_STARTED:
        return ngettext("{count} entrant.", "{count} entrants.", context["entrants"]).format(count=context["entrants"])
    if context["cancelled"]:
        return gettext("It was cancelled.")
    if context["place"]:
        return gettext("You finished {place} of {count}.").format(place=context["place"], count=context["entrants"])
    return ""


def topic(row: Notification) -> str:
    """The push's Topic (RFC 8030 5.4) and the service worker's tag: one per match, so that a device
    that was offline gets, and shows, only the latest push about each match. At most 32 characters
    of the URL-safe base64 alphabet."""
    if row.match_id is None and row.tournament_id is None:
        return f"championship-{row.championship_id}"
    if row.match_id is None:
        return f"tournament-{row.tournament_id}"
    return f"match-{row.match_id}"


def result_sentence(match, recipient_id: int) -> str:
    """Who won, told to one player once the match is over (ALL-3: then the result is public):
    "bob won against you.", "You won against bob.", "carol won; you were 2nd."."""
    result = match.result or {}
    seats = list(match.seats.select_related("user"))
    winners = set(result.get("winners") or [])
    if not seats or result.get("draw") or not winners:
        return gettext("A draw.") if result else ""
    mine = next((seat for seat in seats if seat.user_id == recipient_id), None)
    won = [seat.public_name for seat in seats if seat.number in winners and seat is not mine]
    lost = [seat.public_name for seat in seats if seat.number not in winners and seat is not mine]
    if mine is not None and mine.number in winners:
        if won:
            return gettext("You and {partners} won against {losers}.").format(
                partners=join_names(won), losers=join_names(lost)
            )
        return gettext("You won against {losers}.").format(losers=join_names(lost))
    place = _place(result, seats, mine) if len(winners) == 1 and len(seats) > 2 else None
    if place is not None:
        return gettext("{winners} won; you were {place}.").format(winners=join_names(won), place=place)
    return gettext("{winners} won against you.").format(winners=join_names(won))


ORDINALS = {
    2: gettext_noop("2nd"),
    3: gettext_noop("3rd"),
    4: gettext_noop("4th"),
    5: gettext_noop("5th"),
    6: gettext_noop("6th"),
    7: gettext_noop("7th"),
    8: gettext_noop("8th"),
}


def _place(result: dict, seats: list, mine) -> str | None:
    """The recipient's place by the scores (more is better), when the scores rank the winner first."""
    scores = result.get("scores") or []
    if mine is None or len(scores) != len(seats) or not all(isinstance(x, int | float) for x in scores):
        return None
    if max(scores) != scores[next(iter(result["winners"]))]:
        return None
    place = 1 + sum(1 for score in scores if score > scores[mine.number])
    return gettext(ORDINALS[place]) if place in ORDINALS else None


def join_names(names: list[str]) -> str:
    """ "bob", "bob and carol", "bob, carol and dave" in the active language."""
    if len(names) < 2:
        return "".join(names)
    return gettext("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _finished_lines(sentence: str, reason: str) -> list[str]:
    """Who won, then how: a sentence of the engine's after it, a short reason ("out of lives") inside."""
    if reason and sentence and not reason.endswith((".", "!", "?")):
        return [f"{sentence[:-1]} ({reason})."]
    return [line for line in (sentence, reason) if line]


def _in_zone(moment, zone_name: str) -> str:
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return dateformat.format(timezone.localtime(moment, zone), formats.get_format("SHORT_DATETIME_FORMAT"))
