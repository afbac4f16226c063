"""What other apps read of tournaments (the player's profile, a match's round): no write module is imported here."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from tournaments.models import Entry, Table, Tournament

PROFILE_LIMIT = 20


@dataclass
class PlayedTournament:
    """One of a player's tournaments as their profile lists it."""

    tournament: Tournament
    place: int | None  # set once it is over
    entrants: int
    withdrawn: bool

    @property
    def won(self) -> bool:
        return self.place == 1 and self.tournament.status == Tournament.Status.FINISHED

    @property
    def champion(self) -> bool:
        """Won the top division of a championship season: the championship's title."""
        return self.won and self.tournament.season_id is not None and self.tournament.division == 0


def player_tournaments(user, limit: int = PROFILE_LIMIT) -> list[PlayedTournament]:
    """The tournaments `user` entered (not cancelled ones), newest first, with their place."""
    entries = (
        Entry.objects.filter(user=user)
        .exclude(tournament__status=Tournament.Status.CANCELLED)
        .select_related("tournament")
        .annotate(entrants=Count("tournament__entries"))
        .order_by("-tournament__starts_at", "-tournament_id")[:limit]
    )
    return [PlayedTournament(e.tournament, e.place, e.entrants, e.withdrawn or e.disqualified) for e in entries]


def titles_of(user) -> list[Tournament]:
    """Every finished tournament `user` won, newest first (a championship's top division: its title)."""
    won = Entry.objects.filter(user=user, place=1, tournament__status=Tournament.Status.FINISHED)
    return list(Tournament.objects.filter(pk__in=won.values("tournament")).order_by("-ended", "-pk"))


def profile_context(user) -> dict:
    """The tournaments part of a player's profile (ratings.presenters.add_profile_part)."""
    return {"tournaments": player_tournaments(user), "titles": titles_of(user)}


def round_context(match) -> dict:
    """A tournament's match: its tournament and round, told in the first email and push about the
    match (that is the "new round, and your match" notification). Registered with notifications."""
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    if table is None:
        return {}
    return {"tournament_name": table.round.tournament.name, "round_number": table.round.number}
