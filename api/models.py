"""Personal API tokens and the secret calendar feed URL (issue 18).

A token is shown once, when it is made; only its SHA-256 is stored, so a database leak gives no
usable token. The calendar token is stored as it is: it must be shown again in the settings page,
and it only reads deadlines.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "dzy_"
LAST_USED_GRANULARITY_SECONDS = 60  # at most one write per token a minute for "last used"


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def live(self):
        return self.filter(revoked__isnull=True)


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    key_hash = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=12)  # the first characters, so the owner can tell tokens apart
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…) of {self.user_id}"

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        """A new token for `user`: the row and the raw token, which is never stored nor shown again."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, key_hash=hash_token(raw), hint=raw[: len(TOKEN_PREFIX) + 4])
        return token, raw

    @classmethod
    def find(cls, raw: str) -> ApiToken | None:
        """The live token of an active user for this raw value, or None."""
        if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
            return None
        token = cls.objects.live().select_related("user").filter(key_hash=hash_token(raw)).first()
        if token is None or not token.user.is_active:
            return None
        return token

    def touch(self) -> None:
        now = timezone.now()
        if self.last_used is None or (now - self.last_used).total_seconds() >= LAST_USED_GRANULARITY_SECONDS:
            ApiToken.objects.filter(pk=self.pk).update(last_used=now)
            self.last_used = now

    def revoke(self) -> None:
        ApiToken.objects.filter(pk=self.pk, revoked__isnull=True).update(revoked=timezone.now())


class CalendarFeed(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar of {self.user_id}"

    @classmethod
    def for_user(cls, user) -> CalendarFeed:
        feed, _ = cls.objects.get_or_create(user=user, defaults={"token": secrets.token_urlsafe(32)})
        return feed

    def regenerate(self) -> None:
        """A new secret URL; the old one stops working at once."""
        self.token = secrets.token_urlsafe(32)
        self.save(update_fields=["token"])
