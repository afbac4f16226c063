"""The public replay of a finished match: any position, drawn by the game's own board presenter.

After the end everything is public (ruling ALL-3): every move's log entries are shown whole, and
every position is drawn from the engine's view with `ended=True`, which shows everything. A seat's
viewpoint draws the board as laid out for that player, but the words are the reader's: "you" only
for the reader's own seat, every other seat (all of them, for a reader without a seat) by name. Only
ended matches that were played get here (the view answers 404 otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.engines.registry import get_spec
from games.engines.spec import BoardInput
from games.models import Match, fill_names, seat_names
from games.presenters import PlayerView, match_info
from games.reads import match_moves
from ratings.replay import match_steps, positions


@dataclass
class Viewpoint:
    seat: int | None
    label: str
    current: bool


@dataclass
class ReplayPage:
    match: Any  # games.presenters.MatchInfo
    at: int
    total: int
    viewpoints: list[Viewpoint]
    seat: int | None
    history: list[tuple[int, str, list[str]]]  # (move number, mover, texts), all of them
    board: SafeString
    players: list[str]


def parse_at(raw: str | None, total: int) -> int:
    """?at=N, the position after N moves: 0 is the start; missing or bad means the final position."""
    try:
        return max(0, min(int(raw or total), total))
    except ValueError:
        return total


def parse_seat(raw: str | None, players: int) -> int | None:
    """?seat=N shows what seat N saw then; anything else is the spectator's view."""
    try:
        seat = int(raw or "")
    except ValueError:
        return None
    return seat if 0 <= seat < players else None


def reader_seat(seats: list, reader: Any) -> int | None:
    """The reader's own seat in the match (None for a spectator or a visitor): whom words call "you"."""
    reader_id = getattr(reader, "pk", None) if getattr(reader, "is_authenticated", False) else None
    return next((s.number for s in seats if reader_id is not None and s.user_id == reader_id and s.accepted), None)


def replay_page(match: Match, at_raw: str | None, seat_raw: str | None, reader: Any = None) -> ReplayPage:
    """`reader`: the user reading (or None, an anonymous visitor): the words are for their seat."""
    seats = list(match.seats.all())
    you = reader_seat(seats, reader)
    names = seat_names(seats)
    moves = match_moves(match)
    at = parse_at(at_raw, len(moves))
    seat = parse_seat(seat_raw, len(seats))
    spec = get_spec(match.game)
    steps = match_steps(moves)
    state = next(islice(positions(spec.engine, len(seats), match.options, int(match.seed), steps), at, None))
    history = [
        (m.number, names.get(f"p{m.seat}", ""), [fill_names(t, names) for t in m.texts_for(you, everything=True)])
        for m in moves
    ]
    viewpoints = [Viewpoint(None, gettext("a spectator"), seat is None)] + [
        Viewpoint(s.number, s.public_name, seat == s.number) for s in seats
    ]
    return ReplayPage(
        match=match_info(match, names),
        at=at,
        total=len(moves),
        viewpoints=viewpoints,
        seat=seat,
        history=history,
        board=_board(match, spec, state, seat, [s.public_name for s in seats], you),
        players=[s.public_name for s in seats],
    )


def _board(
    match: Match, spec, state: dict[str, Any], seat: int | None, names: list[str], you: int | None
) -> SafeString:
    """The game's board for this position, as its board page draws it but with no controls: laid out
    from `seat`, its words for the reader's seat `you`."""
    if spec.present is None:
        return mark_safe("")
    view = spec.engine.view(state, seat, ended=True)  # ALL-3: every position of a finished match is public
    given = BoardInput(view=view, legal=[], seat=seat, my_turn=False, names=names, is_over=True, reader=you)
    board = spec.present(given)
    pv = PlayerView(
        match=match_info(match, {f"p{number}": name for number, name in enumerate(names)}),
        seats=[],
        seat=seat,
        my_turn=False,
        waiting_for="",
        view=view,
        legal=[],
        history=[],
        board=board,
    )
    return mark_safe(render_to_string(spec.board_template, {"board": board, "pv": pv}, using="jinja2"))
