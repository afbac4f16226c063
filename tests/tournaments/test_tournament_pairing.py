"""Property tests of tournaments.pairing: every entrant paired once a round, no avoidable rematch,
a bye at most once, seats balanced, points by place and tie-breaks."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Outcome,
    Round,
    SwissPlayer,
    knockout_first_round,
    knockout_next_round,
    places_from_result,
    points_by_place,
    round_robin,
    round_robin_round,
    standings,
    swiss_round,
    table_sizes,
    tables_round,
    team_points,
)

FAST = settings(max_examples=40, deadline=None)


def assert_everyone_once(round_: Round, players: list[int]) -> None:
    assert sorted(round_.players()) == sorted(players)


@FAST
@given(st.integers(min_value=2, max_value=16))
def test_round_robin_meets_everyone_once_with_balanced_first_seats(count):
    players = list(range(100, 100 + count))
    rounds = round_robin(players)
    firsts, seconds, pairs = Counter(), Counter(), Counter()
    for round_ in rounds:
        assert_everyone_once(round_, players)
        for a, b in round_.tables:
            firsts[a] += 1
            seconds[b] += 1
            pairs[frozenset((a, b))] += 1
    assert set(pairs) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(pairs.values()) == {1}
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)
    assert Counter(r.bye for r in rounds if r.bye is not None) == (Counter(players) if count % 2 else Counter())


def test_a_round_robin_round_alone_is_the_same_round():
    players = [3, 1, 4, 5, 9]
    assert [round_robin_round(players, i) for i in range(5)] == round_robin(players)
    with pytest.raises(ValueError):
        round_robin_round(players, 5)


def fewest_rematches(players: list[SwissPlayer]) -> int:
    """By brute force: the fewest rematches any pairing of these players can have, the bye (for an
    odd count) going to someone without one."""
    ids = [p.id for p in players]
    by_id = {p.id: p for p in players}
    if len(ids) % 2:
        eligible = [p.id for p in players if not p.had_bye] or ids
        return min(fewest_rematches([by_id[i] for i in ids if i != bye]) for bye in eligible)
    if not ids:
        return 0
    first, rest = ids[0], ids[1:]
    best = len(ids)
    for other in rest:
        remaining = [by_id[i] for i in rest if i != other]
        best = min(best, (other in by_id[first].opponents) + fewest_rematches(remaining))
    return best


def play_swiss(count: int, rounds: int, seed: int) -> list[tuple[list[SwissPlayer], Round]]:
    """A whole Swiss with random results (ratings random too), every round paired from standings."""
    rng = random.Random(seed)
    state = {p: SwissPlayer(p, rating=rng.randint(1000, 2000)) for p in range(count)}
    played = []
    for _ in range(rounds):
        before = list(state.values())
        round_ = swiss_round(before)
        played.append((before, round_))
        for a, b in round_.tables:
            won = rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
            for me, other, points, first in ((a, b, won, True), (b, a, 1 - won, False)):
                p = state[me]
                state[me] = SwissPlayer(
                    me,
                    float(p.score + points),
                    p.rating,
                    p.opponents | {other},
                    p.firsts + first,
                    p.seconds + (not first),
                    p.had_bye,
                )
        if round_.bye is not None:
            p = state[round_.bye]
            state[round_.bye] = SwissPlayer(p.id, p.score + 1, p.rating, p.opponents, p.firsts, p.seconds, True)
    return played


@FAST
@given(st.integers(min_value=2, max_value=10), st.integers(min_value=1, max_value=7), st.integers(0, 10**6))
def test_swiss_properties(count, rounds, seed):
    rounds = min(rounds, count)
    firsts, seconds = Counter(), Counter()
    for before, round_ in play_swiss(count, rounds, seed):
        assert_everyone_once(round_, list(range(count)))
        assert all(len(table) == 2 for table in round_.tables)
        assert (round_.bye is not None) == (count % 2 == 1)
        by_id = {p.id: p for p in before}
        assert round_.bye is None or not by_id[round_.bye].had_bye  # at most one bye each
        rematches = sum(b in by_id[a].opponents for a, b in round_.tables)
        assert rematches == fewest_rematches(before)  # none that another pairing avoids
        for a, b in round_.tables:
            firsts[a] += 1
            seconds[b] += 1
    assert all(abs(firsts[p] - seconds[p]) <= 2 for p in range(count))


def test_a_big_swiss_paired_by_windows_has_no_rematch_and_one_bye_each():
    byes = []
    for before, round_ in play_swiss(81, 7, seed=7):  # over FULL_GRAPH_UP_TO: the windowed graph first
        byes.append(round_.bye)
        assert_everyone_once(round_, list(range(81)))
        by_id = {p.id: p for p in before}
        assert not any(b in by_id[a].opponents for a, b in round_.tables)
    assert None not in byes and len(set(byes)) == 7


def test_swiss_rematch_only_when_unavoidable():
    a, b = SwissPlayer(1, opponents=frozenset({2})), SwissPlayer(2, opponents=frozenset({1}))
    assert swiss_round([a, b]).tables == [(1, 2)]  # two players: the rematch is the only pairing


def test_swiss_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [SwissPlayer(1, 2), SwissPlayer(2, 1), SwissPlayer(3, 0, had_bye=True)]
    assert swiss_round(players).bye == 2


def test_swiss_pairs_inside_score_groups():
    players = [SwissPlayer(1, 2), SwissPlayer(2, 2), SwissPlayer(3, 0), SwissPlayer(4, 0)]
    assert sorted(frozenset(t) for t in swiss_round(players).tables) == [frozenset({1, 2}), frozenset({3, 4})]


def test_swiss_gives_the_first_seat_to_who_had_it_less():
    players = [SwissPlayer(1, 1, firsts=1), SwissPlayer(2, 1, seconds=1)]
    assert swiss_round(players).tables == [(2, 1)]


@FAST
@given(st.integers(min_value=2, max_value=40))
def test_knockout_byes_fill_a_power_of_two_and_go_to_the_top_seeds(count):
    seeded = list(range(1, count + 1))
    first = knockout_first_round(seeded)
    assert_everyone_once(first, seeded)
    size = len(first.tables) * 2
    assert size >= count and size & (size - 1) == 0 and size < 2 * count
    byes = [table[0] for table in first.tables if len(table) == 1]
    assert sorted(byes) == seeded[: size - count]
    winners = [table[0] for table in first.tables]  # the higher seed wins every match
    rounds = [first]
    while len(winners) > 1:
        rounds.append(knockout_next_round(winners))
        winners = [table[0] for table in rounds[-1].tables]
    assert winners == [1]
    assert len(rounds) == size.bit_length() - 1


def test_knockout_top_two_seeds_meet_only_in_the_final():
    first = knockout_first_round(list(range(1, 9)))
    assert first.tables == [(1, 8), (4, 5), (2, 7), (3, 6)]


@FAST
@given(st.integers(min_value=3, max_value=60), st.integers(min_value=3, max_value=8))
def test_ghosties_tables_seat_everyone_once_within_3_to_8(count, preferred):
    sizes = table_sizes(count, 3, 8, preferred)
    assert sum(sizes) == count and all(3 <= s <= 8 for s in sizes) and max(sizes) - min(sizes) <= 1
    ranked = list(range(count))
    firsts: Counter = Counter()
    for _ in range(4):
        round_ = tables_round(ranked, dict(firsts), 3, 8, preferred)
        assert_everyone_once(round_, ranked)
        for table in round_.tables:
            assert firsts[table[0]] == min(firsts[p] for p in table)  # the first seat to who had it least
            firsts[table[0]] += 1
        ranked = ranked[1:] + ranked[:1]  # the standings move


def test_duo_battle_tables_and_too_few_players():
    assert table_sizes(7, 2, 6, 4) == [4, 3]
    assert table_sizes(2, 2, 6, 6) == [2]
    with pytest.raises(ValueError):
        table_sizes(2, 3, 8, 4)


def test_points_by_place_trn_1_and_2():
    # four seats, seat 2 wins, the rest by lives: seat 0 has 3, seat 1 and 3 have 1 (tied for third)
    places = places_from_result(4, [2], [3, 1, 5, 1], False, rank_by_scores=True)
    assert places == [2, 3, 1, 3]
    assert points_by_place(places) == [Fraction(2, 3), Fraction(1, 6), Fraction(1), Fraction(1, 6)]
    assert points_by_place(places_from_result(2, [0], [], False, True)) == [1, 0]
    assert points_by_place(places_from_result(3, [], [], True, True)) == [Fraction(1, 2)] * 3
    # without ranking by scores, every loser shares second place
    assert points_by_place(places_from_result(3, [1], [9, 0, 0], False, False)) == [
        Fraction(1, 4),
        Fraction(1),
        Fraction(1, 4),
    ]


def test_team_points_trn_3():
    assert team_points(5, [0, 3], False) == [1, 0, 0, 1, 0]
    assert team_points(3, [], True) == [Fraction(1, 2)] * 3


def test_standings_tie_breaks():
    # 1 beat 2, 2 beat 3, 3 beat 1 (all on 1 point); 4 lost to 1 and 3, beat nobody
    one, half, zero = Fraction(1), Fraction(1, 2), Fraction(0)
    outcomes = [
        Outcome((1, 2), (one, zero)),
        Outcome((2, 3), (one, zero)),
        Outcome((3, 1), (one, zero)),
        Outcome((1, 4), (one, zero)),
        Outcome((4, 3), (half, half)),
    ]
    rows = {row.player: row for row in standings([1, 2, 3, 4], outcomes, byes=[])}
    assert rows[1].score == 2 and rows[3].score == Fraction(3, 2) and rows[2].score == 1
    assert rows[1].buchholz == rows[2].score + rows[3].score + rows[4].score
    assert rows[1].sonneborn_berger == rows[2].score + rows[4].score
    assert [row.player for row in standings([1, 2, 3, 4], outcomes, [])] == [1, 3, 2, 4]
    # two players level on score: the one who won their game ranks first (head-to-head)
    level = standings([1, 2, 3], [Outcome((2, 1), (one, zero))], byes=[1])
    assert [row.player for row in level] == [2, 1, 3]
    assert level[0].head_to_head == 1 and level[1].head_to_head == 0
