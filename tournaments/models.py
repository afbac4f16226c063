"""Tournaments, their entries, rounds and tables.

A table is one match of a round (two seats, or N for the multi-seat games) or a bye. Points and
standings are not stored: they follow from the tables' finished matches (tournaments/standings.py),
so a moderator's adjudication of a match changes the standings with nothing else to update.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.engines.registry import GAMES as GAME_NAMES
from games.models import BOT_LEVELS, Match, TimeControl

# A championship division's name; stored in English (Tournament.name, for the admin and the API) and
# shown in the reader's language (Tournament.title).
DIVISION_NAME = gettext_noop("{game}, season {season}, division {division}")


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("Knockout")
        TABLES = "tables", _("Tables (points by place)")

    class Status(models.TextChoices):
        OPEN = "open", _("Taking entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=40)  # a slug of games.engines.registry
    options = models.JSONField(default=dict, blank=True)
    time_preset = models.CharField(
        max_length=12, default="daily", choices=[(k, v[0]) for k, v in TimeControl.PRESETS.items()]
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    # Swiss and tables: how many rounds; round robin and knockout: set by the number of entrants.
    rounds = models.PositiveSmallIntegerField(default=5)
    table_size = models.PositiveSmallIntegerField(default=4)  # tables format: the largest table
    all_at_once = models.BooleanField(default=False)  # round robin: every round's matches at the start
    # A fixed schedule: round n is paired round_hours * (n - 1) after the start, not before,
    # whether or not the last round's matches have ended (they go on, and count when they end); a
    # knockout's next round still waits for its winners. None: each round when the last one ends.
    round_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    official = models.BooleanField(default=False)  # organised by the site's admins
    entry_opens = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField(db_index=True)  # entries close; the first round is paired
    min_entrants = models.PositiveSmallIntegerField(default=2)
    max_entrants = models.PositiveSmallIntegerField(default=64)
    rating_min = models.PositiveIntegerField(null=True, blank=True)  # displayed ratings (1500 at the start)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    invite_only = models.BooleanField(default=False)  # only the organiser adds entrants
    bots_allowed = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)  # 0: not started
    created = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=300, blank=True)  # why it was cancelled, kept for moderation
    # A championship season's division is a round robin tournament (all its matches at once).
    season = models.ForeignKey("Season", null=True, blank=True, on_delete=models.CASCADE, related_name="divisions")
    division = models.PositiveSmallIntegerField(null=True, blank=True)  # 0 is the top division

    class Meta:
        ordering = ["starts_at", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)

    @property
    def title(self) -> str:
        """The name as players read it: a championship division's is made in the reader's language
        when it is shown (lazily: an email or push takes its recipient's), the stored name otherwise."""
        if self.season_id is None or self.division is None:
            return self.name
        return format_lazy(_(DIVISION_NAME), game=self.game_name, season=self.season.number, division=self.division + 1)

    def round_due(self, number: int) -> datetime | None:
        """When round `number` is paired on the fixed schedule (None: no schedule)."""
        if self.round_hours is None:
            return None
        return self.starts_at + timedelta(hours=self.round_hours * (number - 1))


class Entry(models.Model):
    """An entrant: a player, or a bot when the organiser allows bots."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    bot_level = models.CharField(max_length=12, blank=True, choices=BOT_LEVELS)
    joined = models.DateTimeField(auto_now_add=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)  # 1 is the top seed; set at the start
    rating = models.PositiveIntegerField(default=1500)  # the displayed rating at the start
    withdrawn = models.BooleanField(default=False)  # left after the start: no further pairings
    disqualified = models.BooleanField(default=False)
    reason = models.CharField(max_length=300, blank=True)  # a moderator's reason, kept
    place = models.PositiveSmallIntegerField(null=True, blank=True)  # the final rank, set at the finish

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], condition=models.Q(user__isnull=False), name="one_entry_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_name} in {self.tournament_id}"

    @property
    def public_name(self) -> str:
        if self.bot_level:
            return f"{self.get_bot_level_display()} #{self.pk}"
        return self.user.public_name

    @property
    def active(self) -> bool:
        return not self.withdrawn and not self.disqualified


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()  # 1-based
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One match of a round, or a bye (no match, one seat)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"

    @property
    def is_bye(self) -> bool:
        return self.match_id is None


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_seats")
    number = models.PositiveSmallIntegerField()  # the match's seat number

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_table_seat")]

    def __str__(self) -> str:
        return f"{self.entry} at {self.table}"


class Invitation(models.Model):
    """The organiser of an invite-only tournament lets this player enter it (they still choose to)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_invitation_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} invited to {self.tournament_id}"


class Championship(models.Model):
    """Always running, one per game and clock: seasons of divisions (tournaments/championship.py)."""

    game = models.CharField(max_length=40)
    time_preset = models.CharField(
        max_length=12, default="daily", choices=[(k, v[0]) for k, v in TimeControl.PRESETS.items()]
    )
    division_size = models.PositiveSmallIntegerField(default=8)
    promote = models.PositiveSmallIntegerField(default=2)  # up from each division; twice as many go down
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")  # an admin
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "time_preset"], name="one_championship_per_clock")]

    def __str__(self) -> str:
        return f"{self.game_name} championship ({self.time_preset})"

    def get_absolute_url(self) -> str:
        return reverse("championship", args=[self.pk])

    @property
    def title(self) -> str:
        """Its name as its page shows it, in the current language."""
        return gettext("%(game)s championship") % {"game": self.game_name}

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)


class ChampionshipMember(models.Model):
    """A player signed up once; in every season until they leave."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined = models.DateTimeField(auto_now_add=True)
    left = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["championship", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.championship_id}"


class Season(models.Model):
    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["championship", "-number"]
        constraints = [models.UniqueConstraint(fields=["championship", "number"], name="unique_season_number")]

    def __str__(self) -> str:
        return f"season {self.number} of {self.championship}"
