"""What publishes the live events: listeners connected in LiveConfig.ready(), all after commit.

- A match's revision: every writer of Match.revision goes through games.actions.common.save_board_change
  (moves, timeouts, resignations, chat, lobby joins and leaves, vacations), which publishes a
  games.events.BoardChanged with the revision as saved (create_match too, for a new open match). Heard
  after the commit, whoever the writer is (the web process or the Celery worker), it publishes the
  revision, a "turns" user event to the seated players (their counts are recomputed by their own
  streams), and a lobby event when the match is open, has just started or was cancelled.
- Matches started in bulk (games.actions.batch.start_matches: a tournament's round, a championship's
  season) are bulk-created, with no BoardChanged: their one games.events.MatchesStarted event,
  heard after the commit, publishes each match's revision, "turns" and "bell" (the start's
  notification rows are bulk-created too) once to each seated player, and one lobby event.
- The bell: a post_save receiver on notifications.Notification (notifications does not import live).
- A stream's end: logging out ("close" for that session's streams) and a user made inactive (a ban or
  a suspension: "close" for all their streams).
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save

from live.broadcast import publish_lobby, publish_match, publish_user

MARKS_READ = {"read_at", "deleted_at"}


def session_tag(session_key: str | None) -> str:
    """A session's name in a "close" event: a hash, so the key itself never travels."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:20] if session_key else ""


def _touches(update_fields: Any, names: set[str]) -> bool:
    return update_fields is None or bool(names & set(update_fields))


def board_changed(event: Any) -> None:
    """A games.events.BoardChanged, after its commit (subscribed in connect()): the match's revision as
    saved, "turns" to its seated players, and the lobby when the match is open, has just started or
    was cancelled. The match object is the action's, as it stands at the commit."""
    from games.models import Match

    match = event.match
    publish_match(match.pk, event.revision)
    for user_id in sorted(set(event.user_ids)):
        publish_user(user_id, "turns")
    if match.status == Match.Status.OPEN or match.version == 0 or match.status == Match.Status.CANCELLED:
        publish_lobby()


def matches_started(event: Any) -> None:
    """A games.events.MatchesStarted, after its commit (subscribed in connect())."""
    players: set[int] = set()
    for match, seats, _ in event.starts:
        publish_match(match.pk, match.revision)
        players.update(seat.user_id for seat in seats if seat.user_id and not seat.is_bot)
    for user_id in sorted(players):  # once each, however many of the matches they sit in
        publish_user(user_id, "turns")
        publish_user(user_id, "bell")  # notifications.listeners.on_matches_started wrote them a row
    if event.starts:
        publish_lobby()


def notification_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if created or _touches(update_fields, MARKS_READ):
        transaction.on_commit(partial(publish_user, instance.recipient_id, "bell"), robust=True)


def user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if not created and not instance.is_active and _touches(update_fields, {"is_active"}):
        transaction.on_commit(partial(publish_user, instance.pk, "close"), robust=True)


def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and key:  # without a key, a tag of "" would close all the user's streams
        tag = session_tag(key)
        transaction.on_commit(partial(publish_user, user.pk, "close", session=tag), robust=True)


def connect() -> None:
    from games import events
    from notifications.models import Notification

    events.subscribe(events.BoardChanged, board_changed)  # after the commit (not during=True)
    events.subscribe(events.MatchesStarted, matches_started)

    post_save.connect(notification_saved, sender=Notification, dispatch_uid="live.notification_saved")
    post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="live.user_saved")
    user_logged_out.connect(logged_out, dispatch_uid="live.logged_out")
