"""Championships: sign up once, leave, and the next season starting by itself when the last ends.

Each division of a season is a round robin Tournament with every match created at once; the
tournaments' own sweep finishes them (places stored), and this module's do_start_season_if_due,
run by the same sweep, then forms the next season's divisions (tournaments/championship.py).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games.actions.common import ActionError, check_can_play
from notifications.models import Kind
from notifications.service import notify_all, notify_championship
from tournaments.actions import entrant_notifications, round_robin_plans, total_rounds
from tournaments.championship import Finish, level_of, next_divisions, positions
from tournaments.matches import create_rounds
from tournaments.models import DIVISION_NAME, Championship, ChampionshipMember, Entry, Season, Tournament


def lock_championship(championship_id: int) -> Championship:
    try:
        return Championship.objects.select_for_update().get(pk=championship_id)
    except Championship.DoesNotExist:
        raise ActionError(gettext("There is no such championship.")) from None


def do_join_championship(championship_id: int, user: User) -> ChampionshipMember:
    """Sign up once: the player enters the lowest division at the next season."""
    check_can_play(user)
    with transaction.atomic():
        championship = lock_championship(championship_id)
        member, created = ChampionshipMember.objects.get_or_create(championship=championship, user=user)
        if not created and not member.left:
            raise ActionError(gettext("You are in this championship already."))
        if not created:
            member.left = False
            member.joined = timezone.now()  # back at the bottom, as a newcomer
            member.save(update_fields=["left", "joined"])
        notify_championship(championship, user, Kind.TOURNAMENT_ENTRY)  # sent once this commits
        return member


def do_leave_championship(championship_id: int, user: User) -> ChampionshipMember:
    """Out from the next season on; the season being played goes on."""
    with transaction.atomic():
        lock_championship(championship_id)
        member = ChampionshipMember.objects.filter(championship_id=championship_id, user=user, left=False).first()
        if member is None:
            raise ActionError(gettext("You are not in this championship."))
        member.left = True
        member.save(update_fields=["left"])
        return member


def season_finishes(season: Season) -> list[Finish]:
    """Every entrant's division, level and place in a finished season."""
    finishes = []
    for division in season.divisions.prefetch_related("entries"):
        entries = list(division.entries.all())
        places = positions([(entry.user_id, entry.place, entry.rating) for entry in entries])
        for entry in entries:
            level = level_of(division.division)
            finishes.append(Finish(entry.user_id, level, division.division, places[entry.user_id], len(entries)))
    return finishes


def do_start_season_if_due(championship_id: int) -> str:
    """Start the next season once every division of the current one is over (the first season once
    two players have signed up). Returns "started" or "" (nothing to do); safe to run twice."""
    with transaction.atomic():
        championship = lock_championship(championship_id)
        current = championship.seasons.order_by("-number").first()
        if current is not None:
            done = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
            if current.divisions.exclude(status__in=done).exists():
                return ""
        staying = set(championship.members.filter(left=False).values_list("user_id", flat=True))
        finishes = [f for f in season_finishes(current) if f.member in staying] if current else []
        seen = {f.member for f in finishes}
        newcomers = [
            m.user_id for m in championship.members.filter(left=False).order_by("joined", "id") if m.user_id not in seen
        ]
        divisions = next_divisions(finishes, newcomers, championship.division_size, championship.promote)
        if sum(len(d) for d in divisions) < 2:
            return ""
        if current is not None:
            current.ended = timezone.now()
            current.save(update_fields=["ended"])
        season = Season.objects.create(championship=championship, number=(current.number + 1) if current else 1)
        start_divisions(championship, season, divisions)
        return "started"


def start_divisions(championship: Championship, season: Season, divisions: list[list[int]]) -> list[Tournament]:
    """The season's divisions: round robins of these players, seeded in this order, every match
    created now. All the divisions at once, in a number of queries that does not grow with the
    divisions or their matches (a season of 64 divisions starts in one worker task)."""
    now = timezone.now()
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=DIVISION_NAME.format(game=championship.game_name, season=season.number, division=index + 1),
            game=championship.game,
            time_preset=championship.time_preset,
            format=Tournament.Format.ROUND_ROBIN,
            all_at_once=True,
            organiser=championship.organiser,
            official=True,
            starts_at=now,
            min_entrants=2,
            max_entrants=len(user_ids),
            invite_only=True,
            status=Tournament.Status.RUNNING,
            season=season,
            division=index,
        )
        for index, user_ids in enumerate(divisions)
    )
    entries = [
        [Entry(tournament=division, user_id=user_id, seed=seed) for seed, user_id in enumerate(user_ids, start=1)]
        for division, user_ids in zip(tournaments, divisions, strict=True)
    ]
    Entry.objects.bulk_create(entry for division in entries for entry in division)
    plans = []
    for division, seated in zip(tournaments, entries, strict=True):
        division.current_round = total_rounds(division, len(seated))
        plans.extend(round_robin_plans(division, seated, division.current_round))
    Tournament.objects.bulk_update(tournaments, ["current_round"])
    create_rounds(plans)
    users = User.objects.in_bulk({entry.user_id for division in entries for entry in division})
    for entry in (entry for division in entries for entry in division):
        entry.user = users[entry.user_id]
    notify_all(
        [
            row
            for division, seated in zip(tournaments, entries, strict=True)
            for row in entrant_notifications(division, seated, Kind.TOURNAMENT_STARTED)
        ]
    )
    return tournaments
