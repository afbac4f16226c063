"""Pairings, points by place and tie-breaks for tournaments: plain Python, no Django.

Players are ids (ints: the tournament's entry ids). A table is a tuple of ids in seat order, the
first id in the first seat (the first move). Rulings TRN-1..TRN-5 are explained in docs/rulings.md
("Tournaments").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

Table = tuple[int, ...]


@dataclass(frozen=True)
class Round:
    """One round: its tables (pairs for two-seat games) and the player with the bye, if any."""

    tables: list[Table]
    bye: int | None = None

    def players(self) -> list[int]:
        seated = [player for table in self.tables for player in table]
        return seated + ([self.bye] if self.bye is not None else [])


# --- round robin (circle method, Berger tables) -------------------------------------------------


def round_robin_rounds(players: Sequence[int]) -> int:
    """How many rounds a round robin of these players has."""
    count = len(players)
    return count - 1 if count % 2 == 0 else count


def round_robin_round(players: Sequence[int], index: int) -> Round:
    """Round `index` (0-based) of the round robin, by the circle method.

    The last player (or the bye, for an odd count) stays fixed and the others turn one step a round.
    The fixed player's seat alternates every round and each other pair takes the first seat by its
    distance on the circle, which gives the Berger tables: over the whole round robin every
    player's first seats and second seats differ by at most one."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    size = len(ring)
    if size < 2 or not 0 <= index < size - 1:
        raise ValueError("no such round")
    fixed, turning = ring[-1], ring[:-1]
    turning = turning[index:] + turning[:index]
    tables: list[Table] = []
    bye = None
    pairs = [(turning[0], fixed)] + [(turning[i], turning[-i]) for i in range(1, size // 2)]
    for i, (a, b) in enumerate(pairs):
        if a is None or b is None:
            bye = b if a is None else a
            continue
        flip = index % 2 == 1 if i == 0 else i % 2 == 1
        tables.append((b, a) if flip else (a, b))
    return Round(tables, bye)


def round_robin(players: Sequence[int]) -> list[Round]:
    """Every round of the round robin at once (Little Golem style: all matches played together)."""
    return [round_robin_round(players, index) for index in range(round_robin_rounds(players))]


# --- Swiss ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissPlayer:
    """A player's standing before a Swiss round. `score` counts in points (halves allowed)."""

    id: int
    score: float = 0.0
    rating: float = 0.0
    opponents: frozenset[int] = frozenset()
    firsts: int = 0  # games played in the first seat
    seconds: int = 0  # games played in the second seat
    had_bye: bool = False

    @property
    def first_balance(self) -> int:
        return self.firsts - self.seconds


BYE = -1  # the bye's node in the matching graph


def swiss_rank(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """Best first: score, then rating, then id (a stable order for equal players)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


FULL_GRAPH_UP_TO = 64  # players; above, a window of neighbours first (the full graph grows as n²)
WINDOW = 16  # each player's neighbours in the ranking, tried next in a big Swiss
BLOCK = 32  # players paired together, tried first in a big Swiss (an even number)


def swiss_round(players: Sequence[SwissPlayer]) -> Round:
    """Pair one Swiss round by a minimum-weight perfect matching.

    Costs, each level outweighing everything below it: a rematch; two players who both had the
    same seat two games more than the other (one of them would reach three); the bye given to
    anyone but the lowest-ranked player without a bye yet; the gap between the two scores
    (squared, so the score groups stay together); two players who both had the first seat more
    often. An odd count adds a bye node joined only to the players who have not had a bye (to
    everyone if all have).

    A big Swiss (over FULL_GRAPH_UP_TO) is first paired in blocks of BLOCK ranking neighbours, then,
    if a block has a rematch or a third seat, with each player joined to their WINDOW neighbours;
    the full graph is used when neither is clean."""
    ranked = swiss_rank(players)
    if len(ranked) < 2:
        return Round([], ranked[0].id if ranked else None)
    if len(ranked) > FULL_GRAPH_UP_TO:
        blocks = _paired_in_blocks(ranked)
        if blocks is not None:
            return blocks
        graph, hard = _swiss_graph(ranked, WINDOW)
        matching = _clean_matching(graph, hard)
        if matching is not None:
            return _as_round(ranked, matching)
    graph, _ = _swiss_graph(ranked, None)
    return _as_round(ranked, nx.min_weight_matching(graph))


def _clean_matching(graph: nx.Graph, hard: int) -> set[tuple[int, int]] | None:
    """The graph's minimum-weight matching if it pairs everyone with no hard fault, else None."""
    matching = nx.min_weight_matching(graph)
    cost = sum(graph.edges[a, b]["weight"] for a, b in matching)
    return matching if 2 * len(matching) == graph.number_of_nodes() and cost < hard else None


def _paired_in_blocks(ranked: list[SwissPlayer]) -> Round | None:
    """A big Swiss, fast: the bye to the lowest-ranked player without one, then blocks of BLOCK
    neighbours in the ranking, each paired on its own full graph. None when a block cannot be
    paired without a hard fault (the caller then pairs the whole field)."""
    bye = None
    if len(ranked) % 2:
        bye = next((p for p in reversed(ranked) if not p.had_bye), ranked[-1])
        ranked = [p for p in ranked if p is not bye]
    tables: list[Table] = []
    for start in range(0, len(ranked), BLOCK):
        block = ranked[start : start + BLOCK]
        graph, hard = _swiss_graph(block, None)
        matching = _clean_matching(graph, hard)
        if matching is None:
            return None
        tables.extend(_as_round(block, matching).tables)
    return Round(tables, bye.id if bye else None)


def _swiss_graph(ranked: list[SwissPlayer], window: int | None) -> tuple[nx.Graph, int]:
    """The pairing graph (edges to the `window` next players, or all) and the cost of one hard fault."""
    count = len(ranked)
    colour_unit = 1
    score_unit = colour_unit * count + 1
    widest_gap = int(2 * (ranked[0].score - ranked[-1].score)) + 1
    bye_unit = score_unit * count * widest_gap**2 + 1
    seat_unit = bye_unit * (count + 1) + 1
    rematch_unit = seat_unit * count + 1
    graph = nx.Graph()
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 : None if window is None else i + 1 + window]:
            cost = int(4 * (a.score - b.score) ** 2) * score_unit
            cost += rematch_unit if b.id in a.opponents else 0
            cost += colour_unit if _same_wish(a, b) else 0
            cost += seat_unit if _same_wish(a, b) and min(abs(a.first_balance), abs(b.first_balance)) >= 2 else 0
            graph.add_edge(a.id, b.id, weight=cost)
    if count % 2:
        eligible = [p for p in reversed(ranked) if not p.had_bye] or list(reversed(ranked))
        for place, player in enumerate(eligible[: None if window is None else 2 * window]):
            graph.add_edge(player.id, BYE, weight=place * bye_unit)  # place 0: the lowest-ranked eligible
    return graph, seat_unit


def _as_round(ranked: list[SwissPlayer], matching: set[tuple[int, int]]) -> Round:
    by_id = {p.id: p for p in ranked}
    bye = None
    tables = []
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            tables.append(seat_pair(by_id[a], by_id[b]))
    order = {p.id: n for n, p in enumerate(ranked)}
    tables.sort(key=lambda table: min(order[player] for player in table))
    return Round(tables, bye)


def _same_wish(a: SwissPlayer, b: SwissPlayer) -> bool:
    """Both had one seat more often, the same one: one of them gets it yet again."""
    return a.first_balance * b.first_balance > 0


def seat_pair(a: SwissPlayer, b: SwissPlayer) -> Table:
    """The first seat to the one who had it less often; equal: to the higher-ranked one."""
    if a.first_balance != b.first_balance:
        return (a.id, b.id) if a.first_balance < b.first_balance else (b.id, a.id)
    first, second = swiss_rank([a, b])
    return (first.id, second.id)


# --- knockout ------------------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power of two: 1 v size, and the top two seeds
    meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def knockout_first_round(seeded: Sequence[int]) -> Round:
    """First round of a knockout; `seeded` is best first (by rating). The bracket is filled up to a
    power of two with byes, which go to the top seeds. A bye round lists its players as one-seat
    tables so the next round can follow the bracket: see knockout_next_round."""
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    tables: list[Table] = []
    for i in range(0, size, 2):
        top, bottom = order[i], order[i + 1]
        a = seeded[top - 1] if top <= len(seeded) else None
        b = seeded[bottom - 1] if bottom <= len(seeded) else None
        tables.append(tuple(p for p in (a, b) if p is not None))
    return Round(tables)


def knockout_next_round(winners: Sequence[int]) -> Round:
    """The next round from the previous round's winners in bracket order (byes included)."""
    if len(winners) % 2:
        raise ValueError("a knockout round needs an even number of winners")
    return Round([(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)])


# --- tables of N (multi-seat games) --------------------------------------------------------------


def table_sizes(count: int, smallest: int, largest: int, preferred: int) -> list[int]:
    """Split `count` players into tables as even as possible, none over `preferred` (the organiser's
    size) when it can be, else fewer tables a seat or two bigger, never over `largest` (the game's
    most players): ruling TRN-9. Every count from `smallest` on can be seated this way."""
    if count < smallest:
        raise ValueError("too few players for a table")
    preferred = max(smallest, min(largest, preferred))
    tables = -(-count // preferred)
    while tables > 1 and count // tables < smallest:
        tables -= 1
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if sizes[0] > largest:
        raise ValueError("these players do not fit at tables of the allowed sizes")
    return sizes


def tables_round(ranked: Sequence[int], firsts: dict[int, int], smallest: int, largest: int, preferred: int) -> Round:
    """Tables for a round of a multi-seat game, players best first: neighbours in the standings
    share a table (Swiss-like); round one is a snake so that every table has strong and weak
    players. At each table the first seat goes to the one who has had it least (then by rank)."""
    sizes = table_sizes(len(ranked), smallest, largest, preferred)
    if not any(firsts.values()):
        groups: list[list[int]] = [[] for _ in sizes]
        targets = _snake(sizes)
        for player, table in zip(ranked, targets):
            groups[table].append(player)
    else:
        groups, start = [], 0
        for size in sizes:
            groups.append(list(ranked[start : start + size]))
            start += size
    order = {player: n for n, player in enumerate(ranked)}
    return Round([tuple(sorted(group, key=lambda p: (firsts.get(p, 0), order[p]))) for group in groups])


def _snake(sizes: list[int]) -> list[int]:
    """Table numbers for players in rank order: 0,1,..,k-1,k-1,..,0,.. skipping full tables."""
    left = list(sizes)
    targets: list[int] = []
    forward = True
    while len(targets) < sum(sizes):
        sweep = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for table in sweep:
            if left[table]:
                left[table] -= 1
                targets.append(table)
        forward = not forward
    return targets


# --- points by place (TRN-1..TRN-3) --------------------------------------------------------------


def places_from_result(
    seats: int, winners: Sequence[int], scores: Sequence[float], draw: bool, rank_by_scores: bool
) -> list[int]:
    """Each seat's place (1 is best; equal places tie), TRN-1: winners first; the rest by the
    game's score (more is better) when `rank_by_scores`, else sharing the next place; a draw ties all."""
    if draw or not winners:
        return [1] * seats
    won = set(winners)
    others = [s for s in range(seats) if s not in won]
    usable = rank_by_scores and len(scores) == seats
    places = [1] * seats
    for seat in others:
        better = sum(1 for other in others if usable and scores[other] > scores[seat])
        places[seat] = len(won) + 1 + better
    return places


def points_by_place(places: Sequence[int]) -> list[Fraction]:
    """TRN-2: at a table of N, place p earns (N - p) / (N - 1): the winner 1, the last 0, a two-seat
    game's draw 1/2 each. Tied players share the average of the places they span."""
    size = len(places)
    if size < 2:
        return [Fraction(1)] * size
    result = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        spanned = range(place, place + tied)
        result.append(sum(Fraction(size - p, size - 1) for p in spanned) / tied)
    return result


def team_points(seats: int, winners: Sequence[int], draw: bool) -> list[Fraction]:
    """TRN-3 (Lizzy Ghosties' teams): every member of the winning side earns a full point, every
    other seat none; a draw gives everyone half."""
    if draw or not winners:
        return [Fraction(1, 2)] * seats
    return [Fraction(1) if seat in set(winners) else Fraction(0) for seat in range(seats)]


# --- standings and tie-breaks (TRN-4, TRN-5) -----------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A finished table: players in seat order and the points each earned there."""

    players: Table
    points: tuple[Fraction, ...]


@dataclass
class Standing:
    player: int
    score: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    played: int = 0
    byes: int = 0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(
    players: Iterable[int], outcomes: Iterable[Outcome], byes: Iterable[int], bye_points: Fraction = Fraction(1)
) -> list[Standing]:
    """Ranked standings: score, then head-to-head among the players on that score, then Buchholz,
    then Sonneborn-Berger (TRN-4, TRN-5). Equal on all: the same rank."""
    rows = {player: Standing(player) for player in players}
    outcomes = list(outcomes)
    for outcome in outcomes:
        for player, points in zip(outcome.players, outcome.points):
            rows[player].score += points
            rows[player].played += 1
            rows[player].opponents.extend(p for p in outcome.players if p != player)
    for player in byes:
        rows[player].score += bye_points
        rows[player].byes += 1
    for outcome in outcomes:
        others_count = len(outcome.players) - 1
        for player, points in zip(outcome.players, outcome.points):
            others = [rows[p].score for p in outcome.players if p != player]
            rows[player].buchholz += sum(others, Fraction(0))
            rows[player].sonneborn_berger += points * sum(others, Fraction(0)) / max(others_count, 1)
    _head_to_head(rows, outcomes)
    ordered = sorted(rows.values(), key=_order_key)
    for n, row in enumerate(ordered):
        same = n and _order_key(ordered[n - 1])[:-1] == _order_key(row)[:-1]
        row.rank = ordered[n - 1].rank if same else n + 1
    return ordered


def _order_key(row: Standing) -> tuple:
    return (-row.score, -row.head_to_head, -row.buchholz, -row.sonneborn_berger, row.player)


def _head_to_head(rows: dict[int, Standing], outcomes: list[Outcome]) -> None:
    """The points each player earned at tables shared with someone on the same score."""
    by_score: dict[Fraction, set[int]] = defaultdict(set)
    for row in rows.values():
        by_score[row.score].add(row.player)
    for outcome in outcomes:
        for player, points in zip(outcome.players, outcome.points):
            tied = by_score[rows[player].score]
            if any(other in tied for other in outcome.players if other != player):
                rows[player].head_to_head += points
