"""Championship divisions: who plays in which division next season. Plain Python, no Django.

Division levels: level 1 has one division, level 2 two, level 3 four, ... (each twice the one
above). The divisions of a season, in order, are [level 1], [level 2 a, level 2 b], [level 3 a..d], ...
A season ranks every member by the level they earned (promoted one up, relegated one down) and
their place; the slots are then filled in that order, so divisions stay full from the top and
newcomers start at the bottom (ruling TRN-7 in docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Finish:
    """A member's end of season: their division's level, the division's index in the season and their place."""

    member: int
    level: int
    division: int
    place: int
    division_size: int


def positions(standing: Sequence[tuple[int, int | None, int]]) -> dict[int, int]:
    """Each member's position in a division, 1 to N with no two equal: (member, place, rating) rows,
    the place as the standings gave it (ties that every tie-break left equal share a place) and no
    place last; a tie is broken by the higher rating, then the lower member id. So exactly
    `promote` go up and twice that go down (TRN-7), however many share a place."""
    order = sorted(standing, key=lambda row: (row[1] is None, row[1] or 0, -row[2], row[0]))
    return {member: position for position, (member, _, _) in enumerate(order, start=1)}


def level_of(division_index: int) -> int:
    """Division 0 is level 1; 1-2 level 2; 3-6 level 3; ..."""
    return (division_index + 1).bit_length()


def earned_level(finish: Finish, promote: int, lowest_level: int) -> int:
    """The top `promote` of a division go one level up; a level's division sends down twice that
    (its share of the two divisions below), except at the lowest level, where nobody goes down."""
    if finish.level > 1 and finish.place <= promote:
        return finish.level - 1
    if finish.level < lowest_level and finish.place > finish.division_size - 2 * promote:
        return finish.level + 1
    return finish.level


def next_divisions(finishes: Sequence[Finish], newcomers: Sequence[int], size: int, promote: int) -> list[list[int]]:
    """The next season's divisions in order (index 0 is level 1), member ids. Members who left are
    simply not in `finishes`; a last division smaller than two joins the one before it."""
    lowest = max((f.level for f in finishes), default=1)
    order = sorted(finishes, key=lambda f: (earned_level(f, promote, lowest), f.place, f.division, f.member))
    ranked = [f.member for f in order] + list(newcomers)
    divisions: list[list[int]] = []
    while ranked:
        divisions.append(ranked[:size])
        ranked = ranked[size:]
    if len(divisions) > 1 and len(divisions[-1]) < 2:
        divisions[-2].extend(divisions.pop())
    return divisions
