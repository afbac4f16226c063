"""A player's own account: a copy of their data, and closing the account (then, ERASE_AFTER_DAYS
later, erasing its personal data). Check, then do, in one transaction; mail and tasks after the
commit. What the other apps keep of a player comes from their registered parts (accounts.parts)."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from celery import current_app
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import DataExport, User, erased_username
from accounts.parts import account_parts

logger = logging.getLogger(__name__)

ERASE_AFTER_DAYS = 30  # the grace period the privacy page promises (templates/accounts/privacy/)
ERASE_BATCH = 200


class AccountError(Exception):
    """The request is refused and nothing changed; the message is for the player."""


def _queue_on_commit(name: str, *args: Any) -> None:
    """Queue the task `name` once the transaction commits, by name (as games.queue, which this lower
    layer cannot import): run at once under CELERY_TASK_ALWAYS_EAGER, as in the tests."""

    def send() -> None:
        if name not in current_app.tasks:
            current_app.loader.import_default_modules()
        task = current_app.tasks.get(name)
        if task is None:
            current_app.send_task(name, args)
        else:
            task.apply_async(args)

    transaction.on_commit(send)


# The copy of a player's data


def profile_data(user: User) -> dict[str, Any]:
    """The account's own fields and settings: no password hash, nothing of anyone else."""
    addresses = EmailAddress.objects.filter(user=user).order_by("-primary", "email")
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "email_addresses": [{"email": a.email, "verified": a.verified, "primary": a.primary} for a in addresses],
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "settings": {
            "language": user.language,
            "time_zone": user.time_zone,
            "profile_hidden": user.profile_hidden,
            "turn_sound": user.turn_sound,
            "email_preferences": user.email_preferences,
            "push_preferences": user.push_preferences,
        },
        "vacation": {
            "started": user.vacation_started.isoformat() if user.vacation_started else None,
            "year": user.vacation_year,
            "seconds_used": user.vacation_seconds_used,
        },
        "is_bot": user.is_bot,
    }


def build_archive(user: User) -> dict[str, Any]:
    """The whole copy: the profile, then each registered part under its name."""
    archive: dict[str, Any] = {"format": 1, "created": timezone.now().isoformat(), "profile": profile_data(user)}
    for part in account_parts():
        if part.export is not None:
            archive[part.name] = part.export(user)
    return archive


def do_request_data_export(user: User) -> DataExport:
    """The player asks for a copy of their data: one waiting request at a time; the task builds it
    and mails the link."""
    if user.closed_at is not None or not user.is_active:
        raise AccountError(gettext("This account is closed."))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # two clicks at once: one request
        export = DataExport.objects.filter(user=user, ready_at__isnull=True).first()
        if export is None:
            export = DataExport.objects.create(user=user, token=secrets.token_urlsafe(32))
        _queue_on_commit("accounts.tasks.export_user_data", user.pk)
    return export


def do_build_data_exports(user_id: int) -> int:
    """Build the player's waiting copies from what the database holds now, and mail each link after
    the commit. Run twice, the second run finds none waiting. Returns how many it built."""
    with transaction.atomic():
        waiting = list(DataExport.objects.select_for_update().filter(user_id=user_id, ready_at__isnull=True))
        user = User.objects.filter(pk=user_id, closed_at__isnull=True).first()
        if not waiting or user is None:
            return 0
        archive = build_archive(user)
        now = timezone.now()
        for export in waiting:
            export.archive, export.ready_at = archive, now
            export.expires = now + timedelta(days=DataExport.KEEP_DAYS)
            export.save(update_fields=["archive", "ready_at", "expires"])
            transaction.on_commit(partial(_mail_export_link, export.pk), robust=True)
    return len(waiting)


def export_download_url(export: DataExport) -> str:
    return reverse("data_export_download", args=[export.token])


def _mail_export_link(export_id: int) -> None:
    """After the commit, holding no lock: the link to the copy, in the player's own language."""
    export = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if export is None or not export.user.email:
        return
    user = export.user
    language = user.language if user.language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    context = {"user": user, "url": settings.SITE_URL + export_download_url(export), "expires": export.expires}
    with translation.override(language), timezone.override(user.time_zone or "UTC"):
        subject = render_to_string("accounts/emails/data_export_subject.txt", context).strip()
        body = render_to_string("accounts/emails/data_export.txt", context)
    EmailMessage(settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject, body, to=[user.email]).send()


# Closing the account


def check_close_account(user: User, password: str) -> None:
    if user.closed_at is not None:
        raise AccountError(gettext("This account is closed."))
    if not password or not user.check_password(password):
        raise AccountError(gettext("That is not your password."))


def do_close_account(user: User, password: str) -> User:
    """Confirmed by the password: each app ends what the player had going (their open matches
    cancelled, invitations declined, running matches resigned, tournaments left, API tokens revoked,
    push devices removed), then the account is closed and inactive and every session of it ends.
    The personal data goes ERASE_AFTER_DAYS later (do_erase_account)."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        check_close_account(locked, password)
        for part in account_parts():
            if part.close is not None:
                part.close(locked)
        locked.closed_at = timezone.now()
        locked.is_active = False
        locked.save(update_fields=["closed_at", "is_active"])
        for session in UserSession.objects.filter(user=locked):
            session.end()  # its session is deleted: signed out there at once
        DataExport.objects.filter(user=locked).delete()
    return locked


# Erasing a closed account


def erase_cutoff(now: datetime) -> datetime:
    return now - timedelta(days=ERASE_AFTER_DAYS)


def do_reopen_account(user_id: int) -> bool:
    """A closed account signed in to within its grace period opens again (what closing ended stays
    ended). Not after the grace period, nor for a banned player."""
    with transaction.atomic():
        user = (
            User.objects.select_for_update()
            .filter(pk=user_id, closed_at__gt=erase_cutoff(timezone.now()), erased_at__isnull=True, banned=False)
            .first()
        )
        if user is None:
            return False
        user.closed_at = None
        user.is_active = True
        user.save(update_fields=["closed_at", "is_active"])
    return True


def accounts_to_erase(now: datetime) -> list[int]:
    """The accounts closed ERASE_AFTER_DAYS ago or more and not erased yet, oldest first."""
    due = User.objects.filter(closed_at__lte=erase_cutoff(now), erased_at__isnull=True).order_by("closed_at")
    return list(due.values_list("pk", flat=True)[:ERASE_BATCH])


def do_erase_account(user_id: int) -> bool:
    """Erase a closed account's personal data: its email addresses, names and settings, its notes
    and chat texts (the apps' parts), its sessions and sign-in factors; the username becomes
    "deleted-player-<id>". Its finished matches and ratings stay as they are, so that the opponents'
    records still replay. Run twice, or for an account reopened meanwhile, it changes nothing."""
    now = timezone.now()
    with transaction.atomic():
        user = (
            User.objects.select_for_update()
            .filter(pk=user_id, closed_at__lte=erase_cutoff(now), erased_at__isnull=True)
            .first()
        )
        if user is None:
            return False
        for part in account_parts():
            if part.erase is not None:
                part.erase(user)
        EmailAddress.objects.filter(user=user).delete()
        Authenticator.objects.filter(user=user).delete()
        UserSession.objects.filter(user=user).delete()
        DataExport.objects.filter(user=user).delete()
        user.username = erased_username(user.pk)
        user.email = user.first_name = user.last_name = user.display_name = ""
        user.email_preferences, user.push_preferences = {}, {}
        user.language, user.time_zone = "", "UTC"
        user.vacation_started = None
        user.set_unusable_password()
        user.is_active = False
        user.erased_at = now
        user.save()
    return True
