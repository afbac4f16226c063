from __future__ import annotations

from django.conf import settings
from django.db import models


class TutorialProgress(models.Model):
    """How far a signed-in player came in a game's tutorial (a visitor's is kept in the session)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tutorials")
    game = models.CharField(max_length=40)
    step = models.PositiveIntegerField(default=0)  # the step the player is at; the tutorial's length: done
    finished = models.DateTimeField(null=True, blank=True)  # the first time the player reached the end
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_tutorial_progress_per_game")]

    def __str__(self) -> str:
        return f"{self.user} at step {self.step} of the {self.game} tutorial"
