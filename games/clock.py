"""Turn clocks (ruling ALL-1): time per turn plus reserve periods, optional weekend pause.

Plain functions over datetimes so they can be tested without a database.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.utils.translation import ngettext

from games.engines.spec import LiveClock

# A clock this short is played live: the board polls every 2 s, no "your turn" or reminder
# email (the player is at the board), an optional sound instead.
LIVE_TURN_SECONDS = 600


def is_live(turn_seconds: int) -> bool:
    return turn_seconds <= LIVE_TURN_SECONDS


def extra_seconds(live: LiveClock, turn_seconds: int, move_type: str) -> int:
    """Clock time a move adds to its player's running turn: the seed's figure on the game's own live
    clock, the same share of a turn on any other clock (Flower Field, seed 003: "Players will receive
    an extra minute if they challenge", 1 minute on its 2-minute turn: half a turn's time)."""
    if move_type not in live.extra_for or live.turn_seconds <= 0:
        return 0
    return turn_seconds * live.extra_seconds // live.turn_seconds


def add_clock_time(start: datetime, seconds: int, skip_weekends: bool = False, tz_name: str = "UTC") -> datetime:
    """The moment `seconds` of clock time after `start`; with skip_weekends, Saturdays and
    Sundays in the player's own time zone do not count."""
    if not skip_weekends:
        return start + timedelta(seconds=seconds)
    tz = _zone(tz_name)
    moment = start.astimezone(tz)
    remaining = timedelta(seconds=seconds)
    while True:
        next_midnight = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        if moment.weekday() >= 5:
            moment = next_midnight
            continue
        chunk = next_midnight - moment
        if remaining <= chunk:
            return (moment + remaining).astimezone(start.tzinfo)
        remaining -= chunk
        moment = next_midnight


def clock_seconds_between(start: datetime, end: datetime, skip_weekends: bool = False, tz_name: str = "UTC") -> int:
    """Clock time from start to end (0 if end is earlier), weekends left out when paused."""
    if end <= start:
        return 0
    if not skip_weekends:
        return int((end - start).total_seconds())
    tz = _zone(tz_name)
    moment, total = start.astimezone(tz), timedelta()
    end = end.astimezone(tz)
    while moment < end:
        next_midnight = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        stop = min(next_midnight, end)
        if moment.weekday() < 5:
            total += stop - moment
        moment = stop
    return int(total.total_seconds())


def in_words(seconds: int) -> str:
    """A duration for people: "2 days 3 hours", "45 minutes", "30 seconds"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", secs) % {"n": secs}
    parts = [
        ngettext("%(n)d day", "%(n)d days", days) % {"n": days} if days else "",
        ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours} if hours else "",
        ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes} if minutes else "",
    ]
    return " ".join([part for part in parts if part][:2])


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
