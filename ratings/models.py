"""Ratings per game (OpenSkill, Plackett-Luce) and the change every rated match made to each seat.

Two pools per game, never mixed: "people" (matches between people only) and "bots" (matches with at
least one bot seat). Bots are rated in the bots pool, one rating per game and level, so a player can
see how strong each level is, and beating bots never moves a player's rating against people.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import BOT_LEVELS, Match

# OpenSkill's defaults: a new rating is mu 25, sigma 25/3.
START_MU = 25.0
START_SIGMA = 25.0 / 3
# Shown ratings are mu scaled so that a new player starts at 1500, as players expect from Elo sites.
DISPLAY_SCALE = 60
# A rating stays provisional while its uncertainty is this high: about the first six two-player games.
PROVISIONAL_SIGMA = 7.0


def display(mu: float) -> int:
    return round(mu * DISPLAY_SCALE)


class Pool(models.TextChoices):
    PEOPLE = "people", _("against people")
    BOTS = "bots", _("against bots")


class Rating(models.Model):
    """One player's (or one bot level's) rating in one game and pool."""

    game = models.CharField(max_length=40)
    pool = models.CharField(max_length=8, choices=Pool.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings"
    )
    bot_level = models.CharField(max_length=12, blank=True, choices=BOT_LEVELS)
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    matches = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "pool", "user"], condition=models.Q(user__isnull=False), name="one_rating_per_user"
            ),
            models.UniqueConstraint(
                fields=["game", "pool", "bot_level"], condition=models.Q(user__isnull=True), name="one_rating_per_bot"
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot_level="")
                | models.Q(user__isnull=True, pool="bots") & ~models.Q(bot_level=""),
                name="rating_is_a_user_or_a_bot_in_the_bots_pool",
            ),
        ]
        indexes = [
            models.Index(fields=["game", "pool", "-mu"]),
            # A leaderboard counts the ratings played within its last days (ratings.views.leaderboard).
            models.Index(fields=["game", "pool", "last_played"], name="rating_recently_played"),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.value} in {self.game} ({self.pool})"

    @property
    def name(self) -> str:
        if self.user_id:
            return self.user.public_name
        return dict(BOT_LEVELS).get(self.bot_level, self.bot_level)

    @property
    def value(self) -> int:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


class RatingChange(models.Model):
    """What one rated match did to one seat's rating. Unique per (match, seat): rated exactly once."""

    class Outcome(models.TextChoices):
        WON = "won", _("won")
        LOST = "lost", _("lost")
        DRAWN = "drawn", _("drawn")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    outcome = models.CharField(max_length=6, choices=Outcome.choices)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="rated_once_per_seat")]
        # A profile's chart reads a rating's newest changes (ratings.presenters.ratings_of).
        indexes = [models.Index(fields=["rating", "created", "match"], name="ratingchange_history")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.before} -> {self.after}"

    @property
    def before(self) -> int:
        return display(self.mu_before)

    @property
    def after(self) -> int:
        return display(self.mu_after)

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        return self.sigma_after > PROVISIONAL_SIGMA


class PlayerRecord(models.Model):
    """A player's finished matches in one game, counted as each ends (ratings/records.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_record_per_user_and_game")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game}: {self.won}/{self.lost}/{self.drawn}"
