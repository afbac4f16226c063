"""Tournaments (after lichess's tournament and Swiss APIs): list them, read one with its
entrants, standings and pairings, join and leave. What is shown is what the tournament's public page
shows: names, the tables' matches by id and link, and points once a match is over, never anything of
a running match's board."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Annotated, Literal

from django.http import HttpRequest
from ninja import Path, Query, Router, Schema
from ninja.errors import HttpError

from api.auth import scoped
from api.models import CHALLENGE
from api.schemas import MAX_ID, GameSlug
from api.shared import ERRORS
from tournaments import actions
from tournaments.models import Entry, Tournament
from tournaments.standings import compute_standings, read_tables, rounds_with_tables

router = Router(tags=["tournaments"])
TournamentId = Annotated[int, Path(ge=1, le=MAX_ID, description="The tournament's id")]
MAX_LISTED = 50
TournamentStatus = Literal["open", "running", "finished", "cancelled"]


class TournamentOut(Schema):
    id: int
    name: str
    game: str
    format: str
    status: TournamentStatus
    clock: str
    starts_at: datetime
    ended: datetime | None
    rounds: int
    current_round: int
    entrants: int
    min_entrants: int
    max_entrants: int
    rating_min: int | None
    rating_max: int | None
    invite_only: bool
    bots_allowed: bool
    rated: bool
    official: bool
    organiser: str
    url: str


class EntrantOut(Schema):
    name: str
    username: str | None
    is_bot: bool
    seed: int | None
    rating: int
    withdrawn: bool
    disqualified: bool
    place: int | None


class StandingOut(Schema):
    rank: int
    name: str
    username: str | None
    score: float
    head_to_head: float
    buchholz: float
    sonneborn_berger: float
    played: int


class TableOut(Schema):
    number: int
    players: list[str]
    bye: bool
    match_id: int | None
    match_url: str | None
    over: bool
    points: list[float] | None


class RoundOut(Schema):
    number: int
    tables: list[TableOut]


class TournamentDetailOut(Schema):
    tournament: TournamentOut
    entrants: list[EntrantOut]
    standings: list[StandingOut]
    rounds: list[RoundOut]


def tournament_out(tournament: Tournament, entrants: int | None = None) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "clock": tournament.time_preset,
        "starts_at": tournament.starts_at,
        "ended": tournament.ended,
        "rounds": tournament.rounds,
        "current_round": tournament.current_round,
        "entrants": tournament.entries.count() if entrants is None else entrants,
        "min_entrants": tournament.min_entrants,
        "max_entrants": tournament.max_entrants,
        "rating_min": tournament.rating_min,
        "rating_max": tournament.rating_max,
        "invite_only": tournament.invite_only,
        "bots_allowed": tournament.bots_allowed,
        "rated": tournament.rated,
        "official": tournament.official,
        "organiser": tournament.organiser.username,
        "url": tournament.get_absolute_url(),
    }


def _who(entry: Entry) -> dict:
    return {"name": entry.public_name, "username": entry.user.username if entry.user_id else None}


def entrant_out(entry: Entry) -> dict:
    return {
        **_who(entry),
        "is_bot": bool(entry.bot_level),
        "seed": entry.seed,
        "rating": entry.rating,
        "withdrawn": entry.withdrawn,
        "disqualified": entry.disqualified,
        "place": entry.place,
    }


def _points(value: Fraction) -> float:
    return round(float(value), 4)


def detail(tournament: Tournament) -> dict:
    """The tournament page's facts: entrants, standings and every round's tables."""
    tables = read_tables(tournament, rounds_with_tables(tournament))
    entries = {entry.pk: entry for entry in tournament.entries.select_related("user")}
    standings = [
        {
            "rank": row.rank,
            **_who(entries[row.player]),
            "score": _points(row.score),
            "head_to_head": _points(row.head_to_head),
            "buchholz": _points(row.buchholz),
            "sonneborn_berger": _points(row.sonneborn_berger),
            "played": row.played + row.byes,
        }
        for row in compute_standings(tournament, tables)
    ]
    rounds = [
        {"number": number, "tables": [table_out(read) for read in reads]} for number, reads in sorted(tables.items())
    ]
    return {
        "tournament": tournament_out(tournament, len(entries)),
        "entrants": [entrant_out(entry) for entry in sorted(entries.values(), key=lambda e: (e.seed or 0, e.pk))],
        "standings": standings,
        "rounds": rounds,
    }


def table_out(read) -> dict:
    match = read.table.match
    return {
        "number": read.table.number,
        "players": [entry.public_name for entry in read.entries],
        "bye": read.table.is_bye,
        "match_id": match.pk if match else None,
        "match_url": match.get_absolute_url() if match else None,
        "over": read.over,
        "points": [_points(p) for p in read.points] if read.points is not None else None,
    }


def get_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if tournament is None:
        raise HttpError(404, "There is no such tournament.")
    return tournament


@router.get(
    "/tournaments",
    response={200: list[TournamentOut], **ERRORS},
    summary="Tournaments, newest first: upcoming, running and finished",
)
def tournaments(
    request: HttpRequest,
    game: Annotated[GameSlug | None, Query(description="Only this game")] = None,
    status: Annotated[TournamentStatus | None, Query(description="Only tournaments in this state")] = None,
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Only tournaments older than this id")] = None,
):
    found = Tournament.objects.select_related("organiser")
    if game is not None:
        found = found.filter(game=str(game))
    if status is not None:
        found = found.filter(status=status)
    if before is not None:
        found = found.filter(pk__lt=before)
    return [tournament_out(tournament) for tournament in found.order_by("-pk")[:MAX_LISTED]]


@router.get(
    "/tournaments/{tournament_id}",
    response={200: TournamentDetailOut, **ERRORS},
    summary="One tournament: its entrants, standings (with their tie-breaks) and every round's pairings",
)
def one_tournament(request: HttpRequest, tournament_id: TournamentId):
    return detail(get_tournament(tournament_id))


@router.post(
    "/tournaments/{tournament_id}/join",
    response={200: TournamentOut, **ERRORS},
    summary="Enter a tournament that is taking entries",
    **scoped(CHALLENGE),
)
def join(request: HttpRequest, tournament_id: TournamentId):
    get_tournament(tournament_id)
    actions.do_join(tournament_id, request.auth)
    return tournament_out(get_tournament(tournament_id))


@router.post(
    "/tournaments/{tournament_id}/leave",
    response={200: TournamentOut, **ERRORS},
    summary="Leave: before the start the entry goes; after it, no more pairings and my running matches lost",
    description=(
        "Ruling TRN-8: after the start, each running match of the tournament is lost at once: in a game of two "
        "the opponent wins; in a bigger one a bot plays the seat on and the player takes last place's points."
    ),
    **scoped(CHALLENGE),
)
def leave(request: HttpRequest, tournament_id: TournamentId):
    get_tournament(tournament_id)
    actions.do_leave(tournament_id, request.auth)
    return tournament_out(get_tournament(tournament_id))
