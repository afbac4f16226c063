"""A player's deadlines as an iCalendar feed: one event per running match that has one.

The event's UID is the match's, so a calendar app moves the event when the deadline moves; its
SEQUENCE is the match's revision, which grows at every change of the board. Everything in it is
public on the board page already (seat names and deadlines). Its words are in the owner's language:
a calendar app fetches it without a session, so the account's setting decides.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext
from icalendar import Calendar, Event

from games.models import Match, Seat
from notifications.emails import recipient_language

EVENT_MINUTES = 15  # a short event ending at the deadline: a reminder-sized block in the calendar


def _deadline_and_summary(seat: Seat, seats: list[Seat]) -> tuple[object, str] | None:
    match = seat.match
    if seat.to_act and seat.deadline:
        return seat.deadline, gettext("Your move: {match}").format(match=f"{match.game_name} #{match.pk}")
    # Waiting: the earliest deadline of the players to act (a bot's short deadline is no clock).
    acting = [s for s in seats if s.to_act and s.deadline and not s.is_bot]
    if not acting:
        return None
    first = min(acting, key=lambda s: s.deadline)
    summary = gettext("{name} to move: {match}").format(name=first.public_name, match=f"{match.game_name} #{match.pk}")
    return first.deadline, summary


def build(user) -> bytes:
    with translation.override(recipient_language(user)):
        return _calendar(user)


def _calendar(user) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Dizzysite//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", gettext("Dizzysite deadlines"))
    mine = (
        Seat.objects.filter(user=user, accepted=True, handed_to_bot=False, match__status=Match.Status.ACTIVE)
        .select_related("match")
        .order_by("match_id")
    )
    others: dict[int, list[Seat]] = {}
    for other in Seat.objects.filter(match__in=[s.match_id for s in mine]).select_related("user"):
        others.setdefault(other.match_id, []).append(other)
    now = timezone.now()
    for seat in mine:
        found = _deadline_and_summary(seat, others.get(seat.match_id, []))
        if found is None:
            continue
        deadline, summary = found
        event = Event()
        event.add("uid", f"match-{seat.match_id}@dizzysite")
        event.add("sequence", seat.match.revision)
        event.add("dtstamp", now)
        event.add("dtstart", deadline - timedelta(minutes=EVENT_MINUTES))
        event.add("dtend", deadline)
        event.add("summary", summary)
        url = settings.SITE_URL + seat.match.get_absolute_url()
        event.add("url", url)
        description = gettext("Deadline {when} UTC. {url}")
        event.add("description", description.format(when=f"{deadline:%Y-%m-%d %H:%M}", url=url))
        calendar.add_component(event)
    return calendar.to_ical()
