"""Creating rounds and their matches: every seat already taken by its entrant, started at once.

games/actions/lobby.py's create_match needs a creator who takes a seat and invites the others, who
then accept; a tournament's match has its players fixed by the pairing. games/actions/batch.py
creates and starts many such matches at once (the engine's new state, the tournament's clock, the
seats, the notifications and bot moves queued on commit), so a round, or all the rounds of a
championship season's divisions, are created in a number of queries that does not grow with the
matches. Called inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.actions.batch import NewMatch, start_matches
from games.engines.registry import get_engine
from notifications.models import Kind
from tournaments.models import Entry, Round, Table, TableSeat, Tournament


@dataclass
class PlannedRound:
    """Round `number` of `tournament`: its tables in order, each the entries in seat order (one
    entry: a bye)."""

    tournament: Tournament
    number: int
    tables: Sequence[Sequence[Entry]]


def create_rounds(planned: Sequence[PlannedRound]) -> list[Round]:
    """The rounds, their started matches, tables and seats, in a fixed number of queries."""
    rounds = Round.objects.bulk_create(Round(tournament=p.tournament, number=p.number) for p in planned)
    wanted = [new_match(p.tournament, seated) for p in planned for seated in p.tables if len(seated) > 1]
    matches = iter(start_matches(wanted))
    tables, seats = [], []
    for round_, plan in zip(rounds, planned, strict=True):
        for number, seated in enumerate(plan.tables, start=1):
            table = Table(round=round_, number=number, match=next(matches) if len(seated) > 1 else None)
            tables.append(table)
            seats.extend(TableSeat(table=table, entry=entry, number=n) for n, entry in enumerate(seated))
    Table.objects.bulk_create(tables)
    TableSeat.objects.bulk_create(seats)
    return rounds


def new_match(tournament: Tournament, entries: Sequence[Entry]) -> NewMatch:
    """A match of the tournament's game, options and clock, the entries seated in this order."""
    options = get_engine(tournament.game).parse_options(tournament.options, len(entries))
    return NewMatch(
        game=tournament.game,
        options=options,
        created_by_id=tournament.organiser_id,
        time_preset=tournament.time_preset,
        rated=tournament.rated,
        players=[(entry.user_id, entry.bot_level) for entry in entries],
        opening_kind=Kind.TOURNAMENT_ROUND,  # "a new round, and your match", whoever moves first
    )
