"""What the ratings pages show: plain dataclasses built from finished matches only.

Nothing here reads a running match: profiles, head-to-head and records count finished matches, and
ratings only change when a match finishes, so a page built from these tells nothing a board hides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from games.engines.registry import GAMES
from games.models import SEAT_AND_USER_NAME_FIELDS, Match, Seat
from ratings.charts import Chart, rating_chart
from ratings.models import PlayerRecord, Pool, Rating, RatingChange, display
from ratings.records import outcome_in


@dataclass
class ChangeInfo:
    seat: int
    name: str
    outcome: str
    before: int
    after: int
    delta: int
    provisional: bool
    pool: str  # "against people" / "against bots"


# What apps above ratings add to a player's profile page: `part(player) -> dict` of template context
# (tournaments: "tournaments" and "titles"), registered in their AppConfig.ready().
_profile_parts: list[Callable[[Any], dict]] = []


def add_profile_part(part: Callable[[Any], dict]) -> None:
    """Register `part` (idempotent)."""
    if part not in _profile_parts:
        _profile_parts.append(part)


def profile_parts(player) -> dict:
    context: dict = {}
    for part in _profile_parts:
        context.update(part(player))
    return context


def rating_part(match: Match, user, info, seats: list[Seat]) -> None:
    """Ratings' part of a viewer's PlayerView (games.presenters.add_view_part): a finished match's changes."""
    if match.status == Match.Status.FINISHED:
        info.rating_changes = rating_changes(match)


def rating_changes(match: Match) -> list[ChangeInfo]:
    """Each seat's rating change in a finished match (empty when it was not rated)."""
    names = {seat.number: seat.public_name for seat in match.seats.all()}
    changes = RatingChange.objects.filter(match=match).select_related("rating").order_by("seat")
    return [
        ChangeInfo(
            seat=c.seat,
            name=names.get(c.seat, f"seat {c.seat + 1}"),
            outcome=c.get_outcome_display(),
            before=c.before,
            after=c.after,
            delta=c.delta,
            provisional=c.provisional,
            pool=c.rating.get_pool_display(),
        )
        for c in changes
    ]


@dataclass
class Record:
    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)


def finished_seats(user):
    """The user's seats in finished matches, newest first, without the match's (large) state and tail."""
    return (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .defer("match__state", "match__seed", "match__history_tail")
        .order_by("-match__ended", "-match_id")
    )


def records(user) -> tuple[Record, dict[str, Record]]:
    """Won/lost/drawn over every finished match, in all and per game: one counted row per game
    (ratings.records keeps them as matches finish), not every finished match."""
    total, per_game = Record(), {slug: Record() for slug in GAMES}
    for row in PlayerRecord.objects.filter(user=user):
        per_game[row.game] = Record(won=row.won, lost=row.lost, drawn=row.drawn)
        total.won, total.lost, total.drawn = total.won + row.won, total.lost + row.lost, total.drawn + row.drawn
    return total, per_game


@dataclass
class RecentMatch:
    id: int
    game_name: str
    ended: datetime | None
    players: list[str]
    outcome: str  # won, lost or drawn
    rated: bool

    @property
    def outcome_label(self) -> str:
        return str(RatingChange.Outcome(self.outcome).label)


def recent_matches(user, limit: int = 10, before: int | None = None, game: str = "") -> list[RecentMatch]:
    """The user's finished matches, newest first: `limit` of them older than match `before` (a keyset
    page), of one game when `game` is given."""
    # Newest first by match id: the seat_player_matches index gives them without reading (and sorting
    # by end) every finished match of the player.
    shown = ("number", "resigned", "match__game", "match__ended", "match__result", "match__rated")
    seats = finished_seats(user).only(*shown).order_by("-match_id")
    if before is not None:
        seats = seats.filter(match_id__lt=before)
    if game:
        seats = seats.filter(match__game=game)
    seats = list(seats[:limit])
    # Only the columns the names need: the match's tail and the users' whole rows cost more than the rest.
    others = (
        Seat.objects.filter(match_id__in=[s.match_id for s in seats])
        .select_related("user")
        .only(*SEAT_AND_USER_NAME_FIELDS)
        .order_by("number")
    )
    players: dict[int, list[str]] = {}
    for seat in others:
        players.setdefault(seat.match_id, []).append(seat.public_name)
    return [
        RecentMatch(
            id=s.match_id,
            game_name=s.match.game_name,
            ended=s.match.ended,
            players=players.get(s.match_id, []),
            outcome=outcome_in(s.match.result, s.number, resigned=s.resigned),
            rated=s.match.rated,
        )
        for s in seats
    ]


@dataclass
class HeadToHead:
    together: int = 0
    viewer_won: int = 0
    player_won: int = 0
    drawn: int = 0  # a draw, or neither of the two won (a third player did)


def head_to_head(player, viewer) -> HeadToHead | None:
    """Finished matches where both sat; None when there is no other signed-in viewer."""
    if not getattr(viewer, "is_authenticated", False) or viewer.pk == player.pk:
        return None
    # Only the matches both sat in, found by the database: not every finished match of each.
    together = finished_seats(player).filter(match__seats__user=viewer)
    mine = {s.match_id: s for s in finished_seats(viewer).filter(match__seats__user=player)}
    found = HeadToHead()
    for seat in together:
        found.together += 1
        theirs, yours = (
            outcome_in(seat.match.result, seat.number, resigned=seat.resigned),
            outcome_in(seat.match.result, mine[seat.match_id].number, resigned=mine[seat.match_id].resigned),
        )
        if yours == "won" and theirs != "won":
            found.viewer_won += 1
        elif theirs == "won" and yours != "won":
            found.player_won += 1
        else:
            found.drawn += 1
    return found


@dataclass
class RatingInfo:
    game: str
    game_name: str
    pool: str
    pool_label: str
    value: int
    sigma: float
    provisional: bool
    matches: int
    rating: Rating | None = None

    # The history and the chart are read only where the page draws them: the profile keeps each drawn
    # chart until the rating's next match (a cached fragment), and then reads neither.
    @cached_property
    def changes(self) -> list[tuple[int, float, float, str]]:
        """The rating's last CHART_MATCHES changes, oldest first: (match id, mu before, mu after, outcome)."""
        newest = self.rating.changes.order_by("-created", "-match_id").values_list(
            "match_id", "mu_before", "mu_after", "outcome"
        )
        return list(newest[:CHART_MATCHES])[::-1]

    @cached_property
    def history(self) -> list[dict[str, Any]]:
        return [{"match": m, "value": display(after), "outcome": outcome} for m, _, after, outcome in self.changes]

    @cached_property
    def chart(self) -> Chart | None:
        if not self.changes:
            return None
        return rating_chart(display(self.changes[0][1]), self.history, total=self.matches)


# A rating's chart shows its last matches only: a player of thousands of matches gets a page of the
# same size and cost as one of a hundred; the ratingchange_history index reads them.
CHART_MATCHES = 100


def ratings_of(user) -> list[RatingInfo]:
    """The user's ratings; each reads its recent history (oldest first) and its chart when asked."""
    found = [
        RatingInfo(
            game=rating.game,
            game_name=GAMES.get(rating.game, rating.game),
            pool=rating.pool,
            pool_label=rating.get_pool_display(),
            value=rating.value,
            sigma=rating.sigma,
            provisional=rating.provisional,
            matches=rating.matches,
            rating=rating,
        )
        for rating in Rating.objects.filter(user=user).order_by("game", "pool")
    ]
    return sorted(found, key=lambda r: (r.game_name, r.pool != Pool.PEOPLE))
