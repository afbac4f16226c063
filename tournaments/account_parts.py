"""The tournaments' part of a player's account (accounts.parts, registered in
TournamentsConfig.ready()): their entries in the copy of their data; closing the account leaves
each tournament not over (before the start the entry goes; after, they withdraw, TRN-8)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tournaments.actions import do_leave
from tournaments.models import Entry, Invitation, Tournament


def export_entries(user: User) -> list[dict[str, Any]]:
    entries = Entry.objects.filter(user=user).select_related("tournament").order_by("id")
    return [
        {
            "tournament": entry.tournament_id,
            "name": entry.tournament.name,
            "game": entry.tournament.game,
            "joined": entry.joined.isoformat(),
            "rating_at_start": entry.rating,
            "place": entry.place,
            "withdrawn": entry.withdrawn,
            "disqualified": entry.disqualified,
        }
        for entry in entries
    ]


def leave_tournaments(user: User) -> None:
    going_on = Entry.objects.filter(
        user=user,
        withdrawn=False,
        disqualified=False,
        tournament__status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING],
    )
    for tournament_id in going_on.values_list("tournament_id", flat=True):
        do_leave(tournament_id, user)
    Invitation.objects.filter(user=user).delete()
