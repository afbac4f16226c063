"""The board of Doubting Flower Field and its flower fields (tetrominoes), in plain Python.

Cells are named "A1".."G7" (column letter, row number) and indexed 0..48 as (row - 1) * 7 + column.
A flower field is four orthogonally connected cells; two fields are equal (duplicates) when one can be
rotated and/or flipped onto the other in shape and colour, and they are not the same set of cells
(ruling FF-5).

Two ways to compare fields live here:
- `canonical_field` / `fields_equal`: plain and general, used by the engine to judge a challenge and
  by the rule vectors;
- placement tables and `placement_key`: every tetromino placement on the 7x7 board precomputed with
  its symmetry orderings, so bots and `legal_moves` can compare hundreds of fields quickly. A test
  checks that both agree.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping

SIZE = 7
COLUMNS = "ABCDEFG"
CELLS: tuple[str, ...] = tuple(f"{COLUMNS[col]}{row + 1}" for row in range(SIZE) for col in range(SIZE))
CELL_INDEX: dict[str, int] = {name: index for index, name in enumerate(CELLS)}
CENTRE = "D4"
COLOURS: tuple[str, ...] = ("red", "blue", "yellow")
COLOUR_CODE: dict[str, int] = {colour: code for code, colour in enumerate(COLOURS)}
LETTER_COLOUR = {"R": "red", "B": "blue", "Y": "yellow"}
EMPTY = -1  # a code for an empty cell in a board of codes


def column_row(index: int) -> tuple[int, int]:
    return index % SIZE, index // SIZE


def neighbours(index: int) -> list[int]:
    col, row = column_row(index)
    found = []
    for d_col, d_row in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c, r = col + d_col, row + d_row
        if 0 <= c < SIZE and 0 <= r < SIZE:
            found.append(r * SIZE + c)
    return found


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(neighbours(i)) for i in range(SIZE * SIZE))


def is_connected(cells: Iterable[int]) -> bool:
    """Whether the cells form one orthogonally connected group."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


# The 8 rotations and reflections of the square, as maps of (x, y).
SYMMETRIES = (
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
)


def _normalised(points: Iterable[tuple[int, int, object]]) -> tuple[tuple[int, int, object], ...]:
    points = list(points)
    min_x = min(p[0] for p in points)
    min_y = min(p[1] for p in points)
    return tuple(sorted(((x - min_x, y - min_y, extra) for x, y, extra in points), key=lambda p: (p[0], p[1])))


def canonical_field(cells: Iterable[int], colour_of: Mapping[int, str]) -> tuple | None:
    """The field's form under the 8 symmetries, smallest first; None when a cell holds no flower."""
    points = []
    for index in cells:
        colour = colour_of.get(index)
        if colour is None:
            return None
        col, row = column_row(index)
        points.append((col, row, colour))
    forms = []
    for symmetry in SYMMETRIES:
        forms.append(_normalised((*symmetry(x, y), colour) for x, y, colour in points))
    return min(forms)


def fields_equal(colour_of: Mapping[int, str], a: Iterable[int], b: Iterable[int]) -> bool:
    """Ruling FF-5: duplicates are equal in shape and colour under rotation/reflection, not the same set."""
    a, b = list(a), list(b)
    if set(a) == set(b):
        return False
    form_a = canonical_field(a, colour_of)
    return form_a is not None and form_a == canonical_field(b, colour_of)


def parse_rows(rows: list[str]) -> dict[int, str]:
    """A board written as 7 strings, row 1 first, columns A-G, R/B/Y or '.' (the rule-vector format)."""
    board = {}
    for row, text in enumerate(rows):
        for col, letter in enumerate(text):
            if letter != ".":
                board[row * SIZE + col] = LETTER_COLOUR[letter]
    return board


# --- every tetromino placement, precomputed ---------------------------------------------------


def _placements() -> list[tuple[int, ...]]:
    found = set()
    for start in range(SIZE * SIZE):
        groups = {(start,)}
        for _ in range(3):
            grown = set()
            for group in groups:
                for cell in group:
                    for n in NEIGHBOURS[cell]:
                        if n not in group:
                            grown.add(tuple(sorted((*group, n))))
            groups = grown
        found |= groups
    return sorted(found)


PLACEMENTS: tuple[tuple[int, ...], ...] = tuple(_placements())  # 572 placements, cells sorted
PLACEMENT_INDEX: dict[tuple[int, ...], int] = {cells: p for p, cells in enumerate(PLACEMENTS)}
PLACEMENTS_OF_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p, cells in enumerate(PLACEMENTS) if i in cells) for i in range(SIZE * SIZE)
)


def _orders() -> tuple[list[int], list[tuple[tuple[int, ...], ...]]]:
    """For each placement: its shape class, and the orders of its cells that read it in the class's
    canonical orientation. Two placements are equal fields iff same class and same smallest reading."""
    classes: dict[tuple, int] = {}
    class_of = []
    orders = []
    for cells in PLACEMENTS:
        forms = []
        for symmetry in SYMMETRIES:
            points = []
            for index in cells:
                col, row = column_row(index)
                points.append((*symmetry(col, row), index))
            form = _normalised(points)
            forms.append((tuple((x, y) for x, y, _ in form), tuple(i for _, _, i in form)))
        shape = min(f[0] for f in forms)
        class_of.append(classes.setdefault(shape, len(classes)))
        orders.append(tuple(sorted({order for form_shape, order in forms if form_shape == shape})))
    return class_of, orders


PLACEMENT_CLASS, PLACEMENT_ORDERS = _orders()


def codes_of(colour_of: Mapping[int, str]) -> list[int]:
    """A board as 49 codes: EMPTY or the colour's index in COLOURS."""
    codes = [EMPTY] * (SIZE * SIZE)
    for index, colour in colour_of.items():
        codes[index] = COLOUR_CODE[colour]
    return codes


def placement_key(codes: list[int], p: int) -> int | None:
    """An int that is equal for two placements exactly when they are equal fields; None if not full."""
    cells = PLACEMENTS[p]
    for index in cells:
        if codes[index] < 0:
            return None
    best = 81
    for a, b, c, d in PLACEMENT_ORDERS[p]:
        value = 27 * codes[a] + 9 * codes[b] + 3 * codes[c] + codes[d]
        if value < best:
            best = value
    return PLACEMENT_CLASS[p] * 81 + best


def key_counts(codes: list[int]) -> Counter:
    """How many full placements have each key."""
    counts: Counter = Counter()
    for p in range(len(PLACEMENTS)):
        key = placement_key(codes, p)
        if key is not None:
            counts[key] += 1
    return counts


def new_keys(codes: list[int], cell: int) -> list[int]:
    """Keys of the full placements that contain `cell` (call with the cell filled)."""
    keys = []
    for p in PLACEMENTS_OF_CELL[cell]:
        key = placement_key(codes, p)
        if key is not None:
            keys.append(key)
    return keys


def planting_makes_duplicate(codes: list[int], counts: Counter, flowers: list[tuple[int, int]]) -> bool:
    """Whether planting these (cell, colour code) pairs makes a field equal to another field.

    `counts` must be key_counts(codes) for the board before the planting. Only fields holding a new
    flower count: older duplicates can no longer be challenged (FF-5)."""
    saved = [codes[cell] for cell, _ in flowers]
    for cell, colour in flowers:
        codes[cell] = colour
    try:
        seen = set()
        new_cells = {cell for cell, _ in flowers}
        for cell, _ in flowers:
            for p in PLACEMENTS_OF_CELL[cell]:
                cells = PLACEMENTS[p]
                if cell != min(c for c in cells if c in new_cells):
                    continue  # a field holding both new flowers is looked at once
                key = placement_key(codes, p)
                if key is None:
                    continue
                if key in seen or counts.get(key, 0) > 0:
                    return True
                seen.add(key)
        return False
    finally:
        for (cell, _), old in zip(flowers, saved):
            codes[cell] = old


def completable_pairs(
    codes: list[int], touch: set[int], claimable: set[int], max_empty: int = 2
) -> list[tuple[int, int]]:
    """Pairs of placements (p, q) that could be a true challenge: at least one touches `touch` (the
    opponent's last planting), at most `max_empty` of their cells are empty, every empty one is in
    `claimable`, and some colours for the empty cells make the two fields equal. Judged from the
    visible board only, so the answer is public knowledge. p is a placement touching `touch`."""
    by_key: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}
    fillings_of: dict[int, list[tuple[tuple[tuple[int, int], ...], int]]] = {}
    for p, cells in enumerate(PLACEMENTS):
        empties = [c for c in cells if codes[c] < 0]
        if len(empties) > max_empty or any(c not in claimable for c in empties):
            continue
        options = []
        for colours in itertools.product(range(3), repeat=len(empties)):
            for cell, colour in zip(empties, colours):
                codes[cell] = colour
            key = placement_key(codes, p)
            filling = tuple(zip(empties, colours))
            options.append((filling, key))
            by_key.setdefault(key, []).append((p, filling))
        for cell in empties:
            codes[cell] = EMPTY
        fillings_of[p] = options
    pairs = set()
    for p, options in fillings_of.items():
        if not touch.intersection(PLACEMENTS[p]):
            continue
        for filling, key in options:
            assigned = dict(filling)
            for q, other in by_key[key]:
                if q == p:
                    continue
                merged = dict(assigned)
                consistent = True
                for cell, colour in other:
                    if merged.setdefault(cell, colour) != colour:
                        consistent = False
                        break
                if not consistent:
                    continue
                # The other field's empty cells outside `other` were none; the first field's cells that
                # the second field shares are filled consistently by construction of `merged`.
                empty_union = {c for c in set(PLACEMENTS[p]) | set(PLACEMENTS[q]) if codes[c] < 0}
                if len(empty_union) > max_empty:
                    continue
                pair = (p, q) if p < q or not touch.intersection(PLACEMENTS[q]) else (q, p)
                pairs.add(pair)
    return sorted(pairs)
