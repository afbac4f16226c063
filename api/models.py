"""Personal API tokens and the secret calendar feed URL.

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
from django.utils.translation import gettext_lazy

TOKEN_PREFIX = "dzy_"
LAST_USED_GRANULARITY_SECONDS = 60  # at most one write per token a minute for "last used"


# What a token may do, chosen when it is made; every endpoint needs one of them.
READ, PLAY, CHALLENGE, BOT = "read", "play", "challenge", "bot"
SCOPES = [
    (READ, gettext_lazy("Read: your matches, views, records, seeks and challenges")),
    (PLAY, gettext_lazy("Play: moves, chat, resign and abort in your matches")),
    (CHALLENGE, gettext_lazy("Challenge: create matches, challenge players, accept, decline, join and leave")),
    (BOT, gettext_lazy("Bot: play as this bot account")),
]


def scopes_for(user) -> list[str]:
    """The scopes a token of `user` may have: a bot account plays with "bot", a person with "play"."""
    return [READ, BOT if user.is_bot else PLAY, CHALLENGE]


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
    scopes = models.JSONField(default=list, blank=True)  # of SCOPES' names

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…) of {self.user_id}"

    @classmethod
    def issue(cls, user, name: str, scopes: list[str] | None = None) -> tuple[ApiToken, str]:
        """A new token for `user`: the row and the raw token, which is never stored nor shown again.

        `scopes`: what it may do, among those the user may have (all of them when not given)."""
        allowed = scopes_for(user)
        chosen = [scope for scope in allowed if scopes is None or scope in scopes]
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, name=name, key_hash=hash_token(raw), hint=raw[: len(TOKEN_PREFIX) + 4], scopes=chosen
        )
        return token, raw

    @classmethod
    def play_becomes_bot(cls, user) -> None:
        """`user` became a bot account: a token's "play" is "bot" from now on."""
        for token in cls.objects.filter(user=user):
            token.scopes = [BOT if scope == PLAY else scope for scope in token.scopes]
            token.save(update_fields=["scopes"])

    def allows(self, scope: str) -> bool:
        return scope in self.scopes

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
        from api.announce import token_revoked

        if ApiToken.objects.filter(pk=self.pk, revoked__isnull=True).update(revoked=timezone.now()):
            token_revoked(self.user_id, self.pk)  # its open streams end (api/streams.py)


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


class Challenge(models.Model):
    """A match made to challenge one player (after lichess's challenges): the match is an
    ordinary open one with the challenged player invited; this row adds who challenged whom and,
    once declined, why. Its state is read from the match: open = pending, running or over =
    accepted, cancelled = declined (with a reason) or cancelled."""

    class Reason(models.TextChoices):
        GENERIC = "generic", gettext_lazy("I am not accepting challenges at the moment.")
        LATER = "later", gettext_lazy("This is not the right time for me, please ask again later.")
        TOO_FAST = "too_fast", gettext_lazy("This clock is too fast for me.")
        TOO_SLOW = "too_slow", gettext_lazy("This clock is too slow for me.")
        RATED = "rated", gettext_lazy("Please send me a rated challenge instead.")
        CASUAL = "casual", gettext_lazy("Please send me an unrated challenge instead.")
        GAME = "game", gettext_lazy("I am not accepting challenges to this game.")
        NO_BOT = "no_bot", gettext_lazy("I am not accepting challenges from bots.")
        ONLY_BOT = "only_bot", gettext_lazy("I am only accepting challenges from bots.")

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="challenge")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    decline_reason = models.CharField(max_length=20, choices=Reason.choices, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"challenge {self.pk}: {self.challenger_id} to {self.challenged_id} (match {self.match_id})"
