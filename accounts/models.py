from __future__ import annotations

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Upper
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def erased_username(user_id: int | None) -> str:
    """An erased account's username: unique, and naming nobody."""
    return f"deleted-player-{user_id}"


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


DEFAULT_TIME_ZONE = "UTC"


def known_time_zone(name: str) -> str:
    """`name` where it is a zone the profile offers, else the default: a browser's zone comes as
    the browser spells it, and an old or odd one must not fail a sign-up."""
    return name if name in zoneinfo.available_timezones() else DEFAULT_TIME_ZONE


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown to other players instead of your username."
    )
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE, choices=time_zone_choices)
    # Vacation (issue: slow play): pauses the player's clocks in every slow match.
    vacation_started = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveIntegerField(default=0)
    vacation_seconds_used = models.PositiveIntegerField(default=0)
    # Email choices per notification kind: "each", "digest" or "never" (missing = the kind's default).
    email_preferences = models.JSONField(default=dict, blank=True)
    # Push choices per kind: true or false (missing = the kind's default, push/preferences.py).
    push_preferences = models.JSONField(default=dict, blank=True)
    # Moderation: a suspended or banned user is inactive (cannot log in or move).
    suspended_until = models.DateTimeField(null=True, blank=True)
    banned = models.BooleanField(default=False)
    # The public profile (ratings app) is shown to signed-in players only.
    profile_hidden = models.BooleanField(
        default=False, verbose_name="Hide my profile from visitors who are not signed in"
    )
    # A bot account plays only through the API; its name carries a robot mark everywhere.
    is_bot = models.BooleanField(default=False)
    # A short sound when it becomes your turn in a live match (static/js/clock.js).
    turn_sound = models.BooleanField(
        default=False, verbose_name="Play a short sound when it becomes my turn in a live match"
    )
    # The member's language for pages and emails (accounts.middleware.UserLanguageMiddleware);
    # empty: whatever the browser asks for. The language switch on every page sets it too.
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=[("", _("As my browser asks")), ("en", "English"), ("nl", "Nederlands")],
        verbose_name=_("Language"),
    )

    # Closed by its player (accounts.actions.do_close_account): signed out, inactive; the personal
    # data is erased ERASE_AFTER_DAYS later (accounts.tasks.erase_closed_accounts), which sets erased_at.
    closed_at = models.DateTimeField(null=True, blank=True)
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta(AbstractUser.Meta):
        indexes = [
            # The admin's match search finds players by their whole username or email in any case
            # (games/admin.py), among 100,000 users without reading them all.
            models.Index(Upper("username"), name="user_username_upper"),
            models.Index(Upper("email"), name="user_email_upper"),
            # The ten-minute task that ends used-up vacations reads only the players on one.
            models.Index(
                fields=["vacation_started"],
                condition=models.Q(vacation_started__isnull=False),
                name="user_on_vacation",
            ),
            # The daily erasure sweep reads only the closed accounts not yet erased.
            models.Index(
                fields=["closed_at"],
                condition=models.Q(closed_at__isnull=False, erased_at__isnull=True),
                name="user_closed_to_erase",
            ),
        ]

    @property
    def public_name(self) -> str:
        if not self.display_name and self.username == erased_username(self.pk):  # no deferred field read
            return gettext("deleted player %(number)s") % {"number": self.pk}
        return f"{self.display_name or self.username}{' 🤖' if self.is_bot else ''}"

    def has_verified_email(self) -> bool:
        return self.emailaddress_set.filter(verified=True).exists()


class DataExport(models.Model):
    """A copy of a player's data, asked for on the settings page and built by a task
    (accounts.tasks.export_user_data): one JSON document, downloaded through a link that only its
    player, signed in, can follow until `expires`."""

    KEEP_DAYS = 7

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="data_exports")
    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    ready_at = models.DateTimeField(null=True, blank=True)  # None: the task has not built it yet
    expires = models.DateTimeField(null=True, blank=True)
    archive = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"data export {self.pk} of user {self.user_id}"
