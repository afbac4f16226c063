"""What a game declares about itself: its engine, its bots, its board presenter and the files that draw it.

Each game's package (games/engines/<game>/) exposes `SPEC`; games/engines/registry.py lists the
packages, and everything else (the site's game list, match options, bot levels, live clocks, the
board and rules pages) is derived from the specs. `games.checks` fails at start-up when a spec's
files are missing. Plain Python like the engines: a presenter turns an engine view into small typed
objects and never sees the state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import Bot, Engine, Move, View
from games.engines.tutorial import Tutorial


@dataclass(frozen=True)
class LiveClock:
    """The seed's own tournament clock (ruling ALL-1): seconds per turn, reserve periods, period length."""

    turn_seconds: int
    reserve_periods: int
    period_seconds: int
    # Time that a move of one of these types adds to its player's running turn, on this clock
    # (scaled to other clocks by games.clock.extra_seconds).
    extra_seconds: int = 0
    extra_for: tuple[str, ...] = ()


SAME_AS_SEAT = -1  # BoardInput.reader's default: the reader sits in the seat the board is laid out for


@dataclass(frozen=True)
class BoardInput:
    """Everything a presenter may use: the viewer's engine view and legal moves, and public facts."""

    view: View
    legal: list[Move]
    seat: int | None  # the viewer's seat, None for a spectator
    my_turn: bool
    names: list[str]  # public names by seat
    select: str = ""  # a selection the board builds up over requests (a piece, cells)
    is_over: bool = False
    # Whom the words address as "you": the reader's own seat. On a board page that is `seat`; a replay
    # seen from a seat by someone else lays the board out from `seat` but names that seat in the third
    # person (the reader's seat, None for a reader without one). SAME_AS_SEAT: as `seat`.
    reader: int | None = SAME_AS_SEAT

    @property
    def you(self) -> int | None:
        """The seat the words call "you" (None: nobody, every seat is named)."""
        return self.seat if self.reader == SAME_AS_SEAT else self.reader


@dataclass(frozen=True)
class MoveChoice:
    """A button that submits one legal move."""

    json: str
    label: str


@dataclass(frozen=True)
class GameSpec:
    engine: Engine
    present: Callable[[BoardInput], Any]
    live_clock: LiveClock
    # Bots by level, every game has "random" (the game's bots.py). They are named here, not on the
    # engine, so that the engine never imports its bots and the bots import the engine at the top.
    bots: Mapping[str, Bot]
    tutorial: Tutorial | None = None  # the game taught on its board (games/engines/tutorial.py)
    # Hints in practice matches (games/hints.py): the bot level that suggests a move, from the asking
    # player's own view, and the move in words. Only for a game of open information, where the
    # suggestion cannot know more than the player sees.
    hint_bot: str = ""
    move_words: Callable[[View, Move], Any] | None = None

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def options(self) -> tuple:
        return self.engine.options

    @property
    def bot_levels(self) -> list[str]:
        return list(self.bots)

    @property
    def board_template(self) -> str:
        """Jinja2, under jinja2_templates/: the game's part of the board fragment, given `board` and `pv`."""
        return f"games/{self.slug}/board.html"

    @property
    def stylesheet(self) -> str:
        """The game's one stylesheet besides the site's, under static/."""
        return f"css/games/{self.slug}.css"

    @property
    def rules_template(self) -> str:
        return f"games/rules/{self.slug}.html"


def move_json(move: Move) -> str:
    """A move as the form posts it: compact, keys sorted, so equal moves compare equal as text."""
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


def legal_json(legal: list[Move]) -> set[str]:
    return {move_json(m) for m in legal}


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"
