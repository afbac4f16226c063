"""The ratings' part of a player's account (accounts.parts, registered in RatingsConfig.ready()):
their ratings with every change and their records, in the copy of their data. Nothing is erased:
the ratings stay, as their opponents' do."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from ratings.models import PlayerRecord, Rating


def export_ratings(user: User) -> dict[str, Any]:
    ratings = Rating.objects.filter(user=user).prefetch_related("changes").order_by("game", "pool")
    records = PlayerRecord.objects.filter(user=user).order_by("game")
    return {
        "ratings": [
            {
                "game": rating.game,
                "pool": rating.pool,
                "rating": rating.value,
                "matches": rating.matches,
                "history": [
                    {
                        "match": change.match_id,
                        "outcome": change.outcome,
                        "before": change.before,
                        "after": change.after,
                        "time": change.created.isoformat(),
                    }
                    for change in sorted(rating.changes.all(), key=lambda c: (c.created, c.pk))
                ],
            }
            for rating in ratings
        ],
        "records": [{"game": r.game, "won": r.won, "lost": r.lost, "drawn": r.drawn} for r in records],
    }
