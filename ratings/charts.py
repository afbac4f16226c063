"""A rating's history as numbers for a server-drawn SVG (templates/ratings/_chart.html).

Readable without colour: each match is a marker whose shape says the outcome (triangle up: won,
triangle down: lost, circle: drawn; the legend says so), the axis is labelled with values, and a
table with the same numbers sits under the chart for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from ratings.models import RatingChange

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36
MARKER = 5


@dataclass
class Marker:
    x: float
    y: float
    path: str  # the marker's outline, its shape naming the outcome
    title: str


@dataclass
class Tick:
    y: float
    label: str


@dataclass
class Chart:
    width: int
    height: int
    line: str  # polyline points
    markers: list[Marker]
    ticks: list[Tick]
    x_labels: list[tuple[float, str]]
    left: int
    right: int
    top: int
    bottom: int
    summary: str


def marker_path(x: float, y: float, outcome: str) -> str:
    r = MARKER
    if outcome == "won":
        return f"M{x:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} L{x - r:.1f},{y + r:.1f} Z"
    if outcome == "lost":
        return f"M{x:.1f},{y + r:.1f} L{x + r:.1f},{y - r:.1f} L{x - r:.1f},{y - r:.1f} Z"
    return f"M{x - r:.1f},{y:.1f} a{r},{r} 0 1,0 {2 * r},0 a{r},{r} 0 1,0 {-2 * r},0 Z"


def _ticks(low: int, high: int) -> list[int]:
    """Round values spanning low..high, at most about five."""
    span = max(high - low, 1)
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if span / s <= 5)
    first = (low // step) * step
    return list(range(first, high + step, step))


def rating_chart(start: int, history: list[dict[str, Any]], total: int | None = None) -> Chart:
    """`start`: the rating before the first match; history: {"match", "value", "outcome"}, oldest first;
    `total`: the rating's matches when `history` is only the last of them (the axis counts on from
    the earlier ones)."""
    earlier = max(0, (total or 0) - len(history))
    values = [start] + [h["value"] for h in history]
    ticks = _ticks(min(values), max(values))
    low, high = ticks[0], max(ticks[-1], ticks[0] + 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(index: int) -> float:
        return LEFT + plot_w * index / max(len(values) - 1, 1)

    def y_of(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    markers = [
        Marker(x, y, marker_path(x, y, h["outcome"]), _marker_title(h)) for (x, y), h in zip(points[1:], history)
    ]
    every = max(1, len(history) // 6)
    x_labels = [(x_of(i), str(earlier + i)) for i in range(0, len(values), every)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
        markers=markers,
        ticks=[Tick(y_of(t), str(t)) for t in ticks],
        x_labels=x_labels,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        summary=_summary(start, values, len(history), earlier),
    )


def _summary(start: int, values: list[int], count: int, earlier: int) -> str:
    figures = {"start": start, "end": values[-1], "count": count, "lowest": min(values), "highest": max(values)}
    if earlier:
        return ngettext(
            "From {start} to {end} over the last {count} of {total} rated matches; lowest {lowest}, highest {highest}.",
            "From {start} to {end} over the last {count} of {total} rated matches; lowest {lowest}, highest {highest}.",
            count,
        ).format(total=earlier + count, **figures)
    return ngettext(
        "From {start} to {end} over {count} rated match; lowest {lowest}, highest {highest}.",
        "From {start} to {end} over {count} rated matches; lowest {lowest}, highest {highest}.",
        count,
    ).format(**figures)


def _marker_title(point: dict[str, Any]) -> str:
    outcome = RatingChange.Outcome(point["outcome"]).label
    return gettext("Match #{number}: {outcome}, rating {value}").format(
        number=point["match"], outcome=outcome, value=point["value"]
    )
