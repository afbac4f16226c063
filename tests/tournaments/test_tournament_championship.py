"""Championship divisions (tournaments/championship.py): everyone placed once, divisions full from
the top, the best go up and the last go down, newcomers at the bottom."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.championship import Finish, level_of, next_divisions


def season(divisions: list[list[int]]) -> list[Finish]:
    """Everyone finishes in the order they were listed in their division."""
    return [
        Finish(member, level_of(index), index, place, len(division))
        for index, division in enumerate(divisions)
        for place, member in enumerate(division, start=1)
    ]


def test_levels_double():
    assert [level_of(i) for i in range(8)] == [1, 2, 2, 3, 3, 3, 3, 4]


def test_the_top_two_go_up_and_the_last_four_go_down():
    first = next_divisions([], list(range(24)), size=8, promote=2)
    assert first == [list(range(8)), list(range(8, 16)), list(range(16, 24))]
    second = next_divisions(season(first), [], size=8, promote=2)
    level_one = set(second[0])
    assert {8, 9, 16, 17} <= level_one  # both level-2 divisions' top two
    assert not {4, 5, 6, 7} & level_one  # level 1's last four went down
    assert {0, 1, 2, 3} <= level_one


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=120), st.integers(min_value=4, max_value=12), st.integers(0, 30))
def test_everyone_placed_once_full_from_the_top(members, size, newcomers):
    promote = max(1, size // 4)
    first = next_divisions([], list(range(members)), size, promote)
    following = next_divisions(season(first), list(range(1000, 1000 + newcomers)), size, promote)
    for divisions in (first, following):
        placed = [m for division in divisions for m in division]
        assert len(placed) == len(set(placed))
        assert all(len(d) == size for d in divisions[:-1]) and 2 <= len(divisions[-1]) < 2 * size
    assert sorted(m for d in following for m in d) == sorted(list(range(members)) + list(range(1000, 1000 + newcomers)))
    assert all(m >= 1000 for m in following[-1][-min(newcomers, len(following[-1])) :]) or newcomers == 0


def test_positions_break_ties_by_rating_then_member_and_put_the_unplaced_last():
    from tournaments.championship import positions

    standing = [(5, 1, 1500), (6, 1, 1600), (7, 1, 1600), (8, None, 2000), (9, 2, 1000)]
    assert positions(standing) == {6: 1, 7: 2, 5: 3, 9: 4, 8: 5}
