"""Reading a tournament: its outcomes, standings, crosstable and pairings (no writes here).

Points come from the tables' finished matches by rulings TRN-1..TRN-3 (tournaments/pairing.py);
an aborted or cancelled match counts as no game (TRN-6): no points, not an opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Prefetch

from games.models import Match, Seat
from ratings.actions import TEAM_GAMES
from tournaments.models import Entry, Round, Table, TableSeat, Tournament
from tournaments.pairing import Outcome, Standing, places_from_result, points_by_place, standings, team_points

# Games whose non-winners are placed by the result's scores (TRN-1): Dizzy Duo Battle's lives left.
SCORE_PLACED_GAMES = {"dizzy-duo-battle"}


def table_points(game: str, match: Match, seats: int, *, out: frozenset[int] = frozenset()) -> list[Fraction] | None:
    """Each seat's points for a finished match; None while it runs or when it did not count. `out`:
    the seats whose players resigned or left the tournament while a bot played on (rulings
    SITE-RESIGN, TRN-8): each takes last place's points, the others keep theirs as the game ended."""
    if match.status != Match.Status.FINISHED or not match.result:
        return None
    result = match.result
    winners, draw = result.get("winners") or [], bool(result.get("draw"))
    if game in TEAM_GAMES:
        points = team_points(seats, winners, draw)
    else:
        places = places_from_result(seats, winners, result.get("scores") or [], draw, game in SCORE_PLACED_GAMES)
        points = points_by_place(places)
    return [Fraction(0) if seat in out else score for seat, score in enumerate(points)]


def rounds_with_tables(tournament: Tournament) -> list[Round]:
    """The rounds, each with its tables, their seats' entries (and users) and matches prefetched."""
    seats = TableSeat.objects.select_related("entry__user").order_by("number")
    match_seats = Prefetch("match__seats", queryset=Seat.objects.only("match", "number", "resigned"))
    tables = Table.objects.select_related("match").prefetch_related(Prefetch("seats", queryset=seats), match_seats)
    return list(tournament.round_set.prefetch_related(Prefetch("tables", queryset=tables)).order_by("number"))


@dataclass
class TableRead:
    """A table as pages and actions read it: entries in seat order, the match, points when over."""

    table: Table
    entries: list[Entry]
    points: list[Fraction] | None

    @property
    def points_text(self) -> str:
        return " – ".join(format_points(p) for p in self.points or [])

    @property
    def over(self) -> bool:
        return self.table.is_bye or (self.table.match is not None and self.table.match.is_over)


def read_tables(tournament: Tournament, rounds: list[Round]) -> dict[int, list[TableRead]]:
    """Round number -> its tables read."""
    result: dict[int, list[TableRead]] = {}
    for round_ in rounds:
        reads = []
        for table in round_.tables.all():
            entries = [seat.entry for seat in table.seats.all()]
            points = None
            if table.match is not None:
                out = frozenset(seat.number for seat in table.match.seats.all() if seat.resigned)
                points = table_points(tournament.game, table.match, len(entries), out=out)
            reads.append(TableRead(table, entries, points))
        result[round_.number] = reads
    return result


def compute_standings(tournament: Tournament, tables: dict[int, list[TableRead]]) -> list[Standing]:
    entries = list(tournament.entries.all())
    outcomes, byes = [], []
    for reads in tables.values():
        for read in reads:
            ids = tuple(entry.pk for entry in read.entries)
            if read.table.is_bye:
                byes.extend(ids)
            elif read.points is not None:
                outcomes.append(Outcome(ids, tuple(read.points)))
    return standings([entry.pk for entry in entries], outcomes, byes)


def crosstable(entries: list[Entry], tables: dict[int, list[TableRead]]) -> list[tuple[Entry, list[str]]]:
    """Round robin: for each entry (row) the points against each entry (columns); '' if not yet played."""
    index = {entry.pk: n for n, entry in enumerate(entries)}
    cells = [["" for _ in entries] for _ in entries]
    for reads in tables.values():
        for read in reads:
            if read.points is None or len(read.entries) != 2:
                continue
            (a, b), (pa, pb) = read.entries, read.points
            cells[index[a.pk]][index[b.pk]] = format_points(pa)
            cells[index[b.pk]][index[a.pk]] = format_points(pb)
    for n in range(len(entries)):
        cells[n][n] = "x"
    return list(zip(entries, cells))


def format_points(points: Fraction) -> str:
    """1, ½, 2½, 0.67 (thirds and sixths of the multi-seat tables, rounded)."""
    whole, rest = divmod(points, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return f"{float(points):.2f}"


def pairable(entry: Entry) -> bool:
    """Still paired: not withdrawn or disqualified, and not a banned or suspended player (is_active
    off; a suspended player is paired again once the suspension ends)."""
    return entry.active and (entry.user_id is None or entry.user.is_active)


def knockout_winners(reads: list[TableRead], entries: dict[int, Entry]) -> list[int]:
    """The winners of a knockout round in bracket order. TRN-6: a draw, or a match that did not
    count, sends the higher seed on; a withdrawn or disqualified winner's place goes to the other."""
    winners = []
    for read in reads:
        ids = [e.pk for e in read.entries]
        points = read.points or [Fraction(0)] * len(ids)
        order = sorted(range(len(ids)), key=lambda n: (not pairable(entries[ids[n]]), -points[n], entries[ids[n]].seed))
        winners.append(ids[order[0]])
    return winners
