"""The addresses of a page's many rows: one address resolved with a placeholder id, then
each row's id put in its place. reverse() walked the site's URL patterns for every row, about 70 µs."""

from __future__ import annotations

from collections.abc import Callable

# An id no row has (so that it is found once in the address), within a bigint.
ID_MARK = 918_273_645_546_372_819


def id_parts(address_of: Callable[[int], str]) -> tuple[str, str] | None:
    """What comes before and after the id in `address_of(ID_MARK)`; None when the id is not in it."""
    head, mark, tail = address_of(ID_MARK).partition(str(ID_MARK))
    return (head, tail) if mark else None
