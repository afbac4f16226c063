"""Chat, reports, blocks and moderators' actions. Changes to matches go through games.actions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from games import actions as game_actions
from games.actions import ActionError, NotAllowed
from games.engines.words import Msg
from games.models import Match, Seat
from games.queue import queue_on_commit
from moderation.models import Block, ChatMessage, ModerationLog, Report

MAX_CHAT_LENGTH = 500


def can_read_chat(match: Match, user) -> bool:
    if match.spectators_read_chat:
        return True
    return user.is_authenticated and match.seats.filter(user=user, accepted=True).exists()


def post_chat(match_id: int, user: User, text: str) -> ChatMessage:
    game_actions.check_can_play(user)
    text = (text or "").strip()
    if not text:
        raise ActionError(gettext("Write something first."))
    if "\x00" in text:  # no browser sends it, and PostgreSQL cannot store it
        raise ActionError(gettext("A message cannot hold NUL characters."))
    if len(text) > MAX_CHAT_LENGTH:
        raise ActionError(gettext("A message has at most %(count)d characters.") % {"count": MAX_CHAT_LENGTH})
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise ActionError(gettext("There is no such match."))
        if not match.seats.filter(user=user, accepted=True).exists():
            raise NotAllowed("Only the players of this match can write in its chat.")
        if match.status == Match.Status.CANCELLED:
            raise ActionError(gettext("This match was cancelled."))
        message = ChatMessage.objects.create(match=match, author=user, text=text)
        game_actions.save_board_change(match, fields=[])  # the board fragment shows the chat: polls pick it up
        queue_on_commit("notifications.tasks.notify_chat", message.pk)  # the other players' inbox, email and push
        return message


def report_message(message_id: int, user: User, *, reason: str = "") -> Report:
    game_actions.check_can_play(user)
    message = ChatMessage.objects.select_related("match").filter(pk=message_id, hidden=False).first()
    if message is None or not can_read_chat(message.match, user):
        raise ActionError(gettext("There is no such message."))
    if message.author_id == user.pk:
        raise ActionError(gettext("You cannot report your own message."))
    if "\x00" in (reason or ""):
        raise ActionError(gettext("A reason cannot hold NUL characters."))
    try:
        with transaction.atomic():
            return Report.objects.create(message=message, reporter=user, reason=(reason or "")[:300])
    except IntegrityError:
        raise ActionError(gettext("You have reported this message already.")) from None


def block_user(user: User, username: str) -> Block:
    other = _user_named(username)
    if other is None:
        raise ActionError(gettext("There is no such player."))
    if other.pk == user.pk:
        raise ActionError(gettext("You cannot block yourself."))
    block, _ = Block.objects.get_or_create(blocker=user, blocked=other)
    return block


def unblock_user(user: User, username: str) -> None:
    other = _user_named(username)
    if other is not None:
        Block.objects.filter(blocker=user, blocked=other).delete()


def _user_named(username: str) -> User | None:
    """The user of that name, or None; a name PostgreSQL cannot even compare (NUL) is nobody."""
    username = (username or "").strip()
    if not username or "\x00" in username:
        return None
    return User.objects.filter(username__iexact=username).first()


# --- moderators -----------------------------------------------------------------------------------


def _log(moderator: User, action: str, reason: str, **targets) -> ModerationLog:
    return ModerationLog.objects.create(moderator=moderator, action=action, reason=reason or "", **targets)


def hide_message(moderator: User, message_id: int, reason: str) -> None:
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        message.hidden = True
        message.save(update_fields=["hidden"])
        message.reports.filter(status=Report.Status.OPEN).update(status=Report.Status.HIDDEN)
        game_actions.save_board_change(message.match, fields=[])  # read without the row lock: F() adds one
        _log(moderator, "hide message", reason, message=message, target_user=message.author, match=message.match)


def dismiss_report(moderator: User, report_id: int, reason: str) -> None:
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report_id)
        report.status = Report.Status.DISMISSED
        report.save(update_fields=["status"])
        _log(moderator, "dismiss report", reason, message=report.message, target_user=report.message.author)


# What else a ban does, filled in by the apps above this one in their AppConfig.ready() (tournaments:
# ruling TRN-8, a banned entrant loses their running tournament matches at once).
ban_hooks: list[Callable[[int], None]] = []


def suspend_user(moderator: User, user: User, days: int | None, seats: str, reason: str) -> None:
    """Suspend for `days` (None: ban for good). The user cannot log in or move; their seats in
    running matches go to bots (seats="bots") or those matches are aborted (seats="abort")."""
    if seats not in ("bots", "abort"):
        raise ActionError(gettext("Choose what happens to the player's running matches."))
    if user.pk == moderator.pk:
        raise ActionError(gettext("You cannot suspend yourself."))
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.is_active = False
        user.banned = days is None
        user.suspended_until = None if days is None else timezone.now() + timedelta(days=days)
        user.save(update_fields=["is_active", "banned", "suspended_until"])
        action = "ban" if days is None else f"suspend {days} days"
        _log(moderator, f"{action}, seats to {seats}", reason, target_user=user)
    if days is None:
        for hook in ban_hooks:
            hook(user.pk)
    for seat in Seat.objects.filter(user=user, handed_to_bot=False).select_related("match"):
        match = seat.match
        if match.status == Match.Status.OPEN:
            if match.created_by_id == user.pk:
                game_actions.do_cancel(match.pk, user)
            else:
                game_actions.do_leave(match.pk, user)
        elif match.status == Match.Status.ACTIVE:
            if seats == "abort":
                game_actions.do_abort(
                    match.pk, moderator, Msg(gettext_noop("Aborted by a moderator: {reason}"), reason=reason)
                )
            else:
                game_actions.do_hand_seat_to_bot(match.pk, seat.number)
            _log(moderator, f"seat to {seats}", reason, target_user=user, match=match)


def aborted_by_a_moderator(reason: str) -> Msg:
    """The end reason players read, in their own language (the moderator's words as they wrote them)."""
    return Msg(gettext_noop("Aborted by a moderator: {reason}"), reason=reason)


def end_suspensions() -> int:
    ended = User.objects.filter(banned=False, suspended_until__lte=timezone.now(), is_active=False)
    return ended.update(is_active=True, suspended_until=None)


def adjudicate(moderator: User, match_id: int, winners: list[int], reason: str) -> None:
    if not reason.strip():
        raise ActionError(gettext("Say why the match is adjudicated."))
    game_actions.do_adjudicate(
        match_id, winners, Msg(gettext_noop("Adjudicated by a moderator: {reason}"), reason=reason)
    )
    _log(moderator, f"adjudicate: winners {winners or 'none (draw)'}", reason, match_id=match_id)


def abort(moderator: User, match_id: int, reason: str) -> None:
    game_actions.do_abort(match_id, moderator, aborted_by_a_moderator(reason))
    _log(moderator, "abort match", reason, match_id=match_id)


def log_state_read(moderator: User, match: Match, what: str) -> None:
    """Staff reading hidden information is logged."""
    _log(moderator, what, "", match=match)
