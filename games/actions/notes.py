"""A player's private notes on a match: saved for its writer alone, during the match and after."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games.actions.common import ActionError, NotAllowed, check_can_play
from games.models import Match, Note, Seat


def do_save_note(match_id: int, user: User, text: str) -> Note:
    """Keep `text` as the user's notes on the match; only a player of it (now or once) has notes.

    No match row lock: the note is the writer's own row and changes nothing anyone else sees (no
    board revision either, so other viewers' polls never learn that it changed)."""
    check_can_play(user)
    text = (text or "").replace("\r\n", "\n")
    if "\x00" in text:  # no browser sends it, and PostgreSQL cannot store it
        raise ActionError(gettext("Notes cannot hold NUL characters."))
    if len(text) > Note.MAX_LENGTH:
        raise ActionError(gettext("Notes hold at most %(count)d characters.") % {"count": Note.MAX_LENGTH})
    if not Match.objects.filter(pk=match_id).exists():
        raise ActionError(gettext("There is no such match."))
    if not Seat.objects.filter(match_id=match_id, user=user, accepted=True).exists():
        raise NotAllowed(gettext("Only the players of this match keep notes on it."))
    with transaction.atomic():
        note, _ = Note.objects.update_or_create(match_id=match_id, user=user, defaults={"text": text})
    return note
