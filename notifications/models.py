"""Emails to players: one row each, written with the change that causes it, sent after commit."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import choice_label


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", _("It is your turn")
    REMINDER = "reminder", _("Your time is running out")
    INVITED = "invited", _("You are invited to a match")
    STARTED = "started", _("A match has started")
    FINISHED = "finished", _("A match has finished")
    HANDED_TO_BOT = "handed_to_bot", _("Your seat was handed to a bot")
    # One row per match and reader while unread, however many messages follow; `turn`
    # holds the id of the first chat message it tells of.
    CHAT = "chat", _("New messages in a match's chat")
    # About a tournament, not a match: the row's `tournament` is set, its `match` empty.
    TOURNAMENT_ENTRY = "tournament_entry", _("Your tournament entry is confirmed")
    TOURNAMENT_STARTED = "tournament_started", _("A tournament you entered has started")
    TOURNAMENT_OVER = "tournament_over", _("A tournament you entered is over")
    # A new round and the player's match in it: about the match (its `match` set, turn 0), told to
    # every player of a tournament's new match instead of "started" or "your turn", so that a player
    # chooses how they hear of their rounds apart from their other matches.
    TOURNAMENT_ROUND = "tournament_round", _("A new round of your tournament, and your match")


TOURNAMENT_KINDS = {Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED, Kind.TOURNAMENT_OVER}


# What a player may choose per kind; the reminder is always sent (it is the last warning).
CHOICES = [("each", _("Each time")), ("digest", _("In a daily digest")), ("never", _("Never"))]
DEFAULT_CHOICE = "each"
ALWAYS_SENT = {Kind.REMINDER}


def preference(user, kind: str) -> str:
    if kind in ALWAYS_SENT:
        return "each"
    choice = (user.email_preferences or {}).get(kind, DEFAULT_CHOICE)
    return choice if choice in dict(CHOICES) else DEFAULT_CHOICE


# Which kinds a player wants pushed to their devices (accounts.User.push_preferences), beside their
# email choices: the preferences page (notifications.views) shows both, the push app reads them.
# A push interrupts: on for what asks the player to act or tells them a match is decided; off for
# "a match has started" (the turn push follows when it is theirs).
PUSH_DEFAULTS = {
    Kind.YOUR_TURN: True,
    Kind.REMINDER: True,
    Kind.INVITED: True,
    Kind.STARTED: False,
    Kind.FINISHED: True,
    Kind.HANDED_TO_BOT: True,
    Kind.CHAT: True,
    # The player just entered (they know); the start and the end they may not be waiting for.
    Kind.TOURNAMENT_ENTRY: False,
    Kind.TOURNAMENT_STARTED: True,
    Kind.TOURNAMENT_OVER: True,
    Kind.TOURNAMENT_ROUND: True,  # a new match to play, perhaps days after the last one
}


def wants_push(user, kind: str) -> bool:
    choice = (user.push_preferences or {}).get(kind)
    return choice if isinstance(choice, bool) else PUSH_DEFAULTS.get(kind, False)


class Notification(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        DIGEST = "digest", "Waiting for the daily digest"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    # One of the two: a match's notifications name the match, a tournament's the tournament.
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    # A championship's sign-up: no tournament yet, the player's division comes at the next season.
    championship = models.ForeignKey(
        "tournaments.Championship", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    turn = models.PositiveIntegerField(
        help_text="the match version the email is about; for an invitation, the match's revision (each is new)"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # A worker marks the row "sending" and commits before it talks to the mail server (no lock is
    # held meanwhile); a claim older than the lease belongs to a dead worker and is taken over.
    claimed_at = models.DateTimeField(null=True, blank=True)
    in_digest = models.BooleanField(default=False, help_text="goes out in the daily digest, not on its own")
    # The site's inbox (push/): every row is listed there, whatever the channels; read once opened.
    read_at = models.DateTimeField(null=True, blank=True)
    # Deleted from the inbox by its reader: kept, so that a repeated task cannot write it again.
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # A retried task or a repeated sweep never sends the same email twice.
            models.UniqueConstraint(fields=["recipient", "match", "turn", "kind"], name="one_email_per_turn_and_kind"),
            # A tournament's rows have no match (NULLs never clash above): one per tournament and kind.
            models.UniqueConstraint(
                fields=["recipient", "tournament", "kind"],
                condition=models.Q(match__isnull=True),
                name="one_email_per_tournament_and_kind",
            ),
            # A championship's rows have neither: one per championship and kind (a player who leaves
            # and signs up again is not confirmed twice).
            models.UniqueConstraint(
                fields=["recipient", "championship", "kind"],
                condition=models.Q(match__isnull=True, tournament__isnull=True),
                name="one_email_per_championship_and_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(match__isnull=False)
                | models.Q(tournament__isnull=False)
                | models.Q(championship__isnull=False),
                name="notification_about_something",
            ),
        ]
        indexes = [
            # The bell's unread count and the inbox page read a player's rows newest first.
            models.Index(fields=["recipient", "read_at"], name="notification_inbox"),
            # The inbox's page (keyset on id, newest first) and its newest id: a reader of 20,000 rows gets
            # the first ones from the index, not all of them sorted.
            models.Index(fields=["recipient", "-id"], name="notification_inbox_page"),
        ]

    def __str__(self) -> str:
        if self.match_id is None and self.tournament_id is None:
            return f"{self.get_kind_display()} to {self.recipient} (championship {self.championship_id})"
        if self.match_id is None:
            return f"{self.get_kind_display()} to {self.recipient} (tournament {self.tournament_id})"
        return f"{self.get_kind_display()} to {self.recipient} (match {self.match_id}, turn {self.turn})"

    def get_absolute_url(self) -> str:
        """Where the row leads: the match's board, the tournament's or the championship's page."""
        if self.match_id is None and self.tournament_id is None:
            return self.championship.get_absolute_url()
        if self.match_id is None:
            return self.tournament.get_absolute_url()
        return self.match.get_absolute_url()

    @property
    def kind_label(self) -> str:
        return choice_label(Kind, self.kind)  # an inbox page's 50 rows

    @property
    def subject_name(self) -> str:
        """What the row is about, as the inbox and the digest name it: "Ghosties #12" or the
        tournament's or championship's name."""
        if self.match_id is None and self.tournament_id is None:
            return self.championship.title
        if self.match_id is None:
            return self.tournament.name
        return f"{self.match.game_name} #{self.match_id}"


class MatchMute(models.Model):
    """A player who muted a match gets no notification about it at all (no inbox row, email or push),
    until they unmute it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_matches")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="one_mute_per_match_and_user")]

    def __str__(self) -> str:
        return f"{self.user} muted match {self.match_id}"
