"""Without Redis: what other processes (the Celery worker: bots, timeouts, reminders) changed.

The in-process broadcaster hears only its own process's publishes. Once a second this watcher reads
the revisions of the matches that have open streams here (one query), and the unread/turn marks and
the active flag of the users with open streams (one query), and publishes what changed, into this
process only. It runs only while something is watched, costs nothing with Redis (not started), and
a board's stream therefore hears a bot's move within about a second.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.db.models import Count, Max, Q

from live.channels import MATCH, REVISION, USER, Message, match_channel, user_channel


class Watched(Protocol):
    """What the watcher needs of live.broadcast.InProcessBroadcaster (not imported: it starts us)."""

    def watched(self, kind: str) -> list[int]: ...

    def dispatch(self, message: Message) -> None: ...


log = logging.getLogger(__name__)
WATCH_S = 1.0


def read_revisions(match_ids: list[int]) -> dict[int, int]:
    from games.models import Match

    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "revision"))


def read_user_marks(user_ids: list[int]) -> dict[int, tuple[int, int, bool]]:
    """Per user: (matches waiting for their move, their newest notification's id, active)."""
    from accounts.models import User
    from games.models import Match

    waiting = Q(seats__to_act=True, seats__handed_to_bot=False, seats__match__status=Match.Status.ACTIVE)
    rows = (
        User.objects.filter(pk__in=user_ids)
        .annotate(turns=Count("seats", filter=waiting, distinct=True), bell=Max("notifications__id"))
        .values_list("pk", "turns", "bell", "is_active")
    )
    return {pk: (turns, bell or 0, active) for pk, turns, bell, active in rows}


def _read(match_ids: list[int], user_ids: list[int]) -> tuple[dict[int, int], dict[int, tuple[int, int, bool]]]:
    close_old_connections()
    try:
        return read_revisions(match_ids) if match_ids else {}, read_user_marks(user_ids) if user_ids else {}
    finally:
        close_old_connections()


def changes(
    seen_matches: dict[int, int],
    seen_users: dict[int, tuple[int, int, bool]],
    revisions: dict[int, int],
    marks: dict[int, tuple[int, int, bool]],
) -> list[Message]:
    """The messages for what differs from what was seen before. A first sighting counts as a change:
    the match may have moved between the stream's own read and this one, and the streams send only
    what is newer than what they sent (a revision, a count), so a repeat costs nothing."""
    messages = []
    for match_id, revision in revisions.items():
        if revision > seen_matches.get(match_id, -1):
            messages.append(Message(match_channel(match_id), REVISION, {"revision": revision}))
    for user_id, (turns, bell, active) in marks.items():
        before = seen_users.get(user_id)
        if before is None or turns != before[0]:
            messages.append(Message(user_channel(user_id), "turns"))
        if before is None or bell != before[1]:
            messages.append(Message(user_channel(user_id), "bell"))
        if not active and (before is None or before[2]):
            messages.append(Message(user_channel(user_id), "close"))
    return messages


async def watch(broadcaster: Watched) -> None:
    """Run for the life of the process's event loop (started by the first listener)."""
    seen_matches: dict[int, int] = {}
    seen_users: dict[int, tuple[int, int, bool]] = {}
    while True:
        await asyncio.sleep(WATCH_S)
        match_ids, user_ids = broadcaster.watched(MATCH), broadcaster.watched(USER)
        if not match_ids and not user_ids:
            seen_matches, seen_users = {}, {}
            continue
        try:
            revisions, marks = await sync_to_async(_read, thread_sensitive=False)(match_ids, user_ids)
        except Exception:
            log.warning("live: the watcher could not read the database", exc_info=True)
            continue
        for message in changes(seen_matches, seen_users, revisions, marks):
            broadcaster.dispatch(message)
        seen_matches = {**{k: v for k, v in seen_matches.items() if k in revisions}, **revisions}
        seen_users = marks
