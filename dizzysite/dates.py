"""A page's many datetimes in one format: the admin's match list and the inbox write one or
more a row, and Django's dateformat splits and unescapes the format string on every call."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from django.utils import dateformat, timezone


class PageDates:
    """dateformat.format(template_localtime(value), format_string) for the datetimes of one page, the
    format parsed once. A day's part (month, day, year, its names) is written once for all the times of
    that day; each time part is Django's own DateFormat method. Make one a page: the active language
    and time zone are read as the page draws."""

    # Django's format characters that read only the date (docs: the `date` filter).
    DATE_ONLY = frozenset("bdDEFjlLmMnNoStwWyYz")

    def __init__(self, format_string: str, empty: str = "") -> None:
        self.empty = empty
        self.pieces: list[tuple[Callable[[dateformat.DateFormat], object] | None, str]] = []
        for index, piece in enumerate(dateformat.re_formatchars.split(format_string)):
            if index % 2:  # a format character
                self.pieces.append((getattr(dateformat.DateFormat, piece), piece))
            elif piece:
                self.pieces.append((None, dateformat.re_escaped.sub(r"\1", piece)))
        self.days: dict[tuple[str, date], str] = {}

    def __call__(self, value: datetime | None) -> str:
        if value is None:
            return self.empty
        local = timezone.template_localtime(value)
        written = dateformat.DateFormat(local)
        parts = []
        for method, piece in self.pieces:
            if method is None:
                parts.append(piece)
            elif piece in self.DATE_ONLY:
                key = (piece, local.date())
                if key not in self.days:
                    self.days[key] = str(method(written))
                parts.append(self.days[key])
            else:
                parts.append(str(method(written)))
        return "".join(parts)
