"""Domain events: an action says what happened to a match; the apps that care subscribe.

The action publishes and never imports its listeners (zulip's `send_event_on_commit`, lichess's bus).
Two kinds of listener:
- `during=True`: runs at once, inside the action's transaction with the match row locked, for work
  that must commit or roll back with the move (a rating, a notification row);
- otherwise: runs after the commit, and only if it commits (a live event, a push). It gets the same
  event, but must treat the match object as a snapshot and re-read what it needs.

Listeners register in their app's `AppConfig.ready()`, so they run in INSTALLED_APPS order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from django.db import transaction


@dataclass(frozen=True)
class MatchEvent:
    """Something happened to `match` (the locked row, as saved) at `version`. `seats`: the match's
    seats with their users, as the action holds them, so that no listener has to find them again."""

    match: Any
    version: int
    seats: tuple[Any, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True)
class MatchStarted(MatchEvent):
    """The last seat was filled and the match began (version 0). `starter_id`: the user whose request
    started it, None when nobody's (a tournament's pairing); `to_move`: the seats that move first."""

    starter_id: int | None = None
    to_move: tuple[int, ...] = ()


@dataclass(frozen=True)
class MoveMade(MatchEvent):
    """The board changed to `version`: a move, a timeout, a resignation or an abort. `seat`: the seat
    whose move it was, None for the site's own changes."""

    seat: int | None = None
    by_bot: bool = False


@dataclass(frozen=True)
class BoardChanged(MatchEvent):
    """Match.revision grew to `revision` (the integer as saved): a move, a timeout, a chat message, a
    lobby join or leave, a vacation... Published by games.actions.common.save_board_change, the one
    writer of the revision, once per call; also by create_match for a new match left open (revision 0),
    which no save_board_change announces. The live channel hears it after the commit. `user_ids`: the
    players seated, whose counts of matches to play may have changed."""

    revision: int
    user_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class TurnStarted(MatchEvent):
    """`to_move` (seat numbers) began a turn at `version`; `mover` made the move that gave it (None at
    the start)."""

    to_move: tuple[int, ...] = ()
    mover: int | None = None


@dataclass(frozen=True)
class MatchFinished(MatchEvent):
    """The match ended at `version` (by the rules, a resignation, an abort or an adjudication).
    `quiet_user_id`: a player who ended it themselves (an abort of their own) and is not told."""

    quiet_user_id: int | None = None


@dataclass(frozen=True)
class SeatHandedToBot(MatchEvent):
    """A bot took over seat `seat`; `reason`: TIMEOUTS (ruling ALL-4's third in a row), MODERATION (a
    suspended player's seat) or RESIGNED (a resignation in a game of three and more)."""

    TIMEOUTS = "timeouts"
    MODERATION = "moderation"
    RESIGNED = "resigned"

    seat: int = 0
    reason: str = ""


@dataclass(frozen=True)
class PlayerInvited(MatchEvent):
    """`user` was invited to a seat of the open match. `key` tells this invitation from an earlier one
    of the same player to the same match: 0 at the match's creation, its revision for a later one."""

    user: Any = None
    key: int = 0


@dataclass(frozen=True)
class ReminderDue(MatchEvent):
    """Seat `seat` (of `user`) has a fifth of its turn's time left: the "time is running out" reminder,
    once per turn (its remind_at was cleared as this was published)."""

    seat: int = 0
    user: Any = None


@dataclass(frozen=True)
class MatchesStarted:
    """Many matches started together by nobody's request (a tournament's round, a championship's
    season: games.actions.batch). `starts`: (match, its seats, opening_kind) for each, the seats with
    their users; `opening_kind` is what every player of that match hears of the start, when not
    "your turn" or "started" (a tournament's "new round, and your match"). One event for them all, so
    that its listeners can work in bulk."""

    starts: tuple[tuple[Any, tuple[Any, ...], str], ...]


E = TypeVar("E")


@dataclass
class _Listeners:
    during: dict[type, list[Callable[[Any], None]]] = field(default_factory=dict)
    after_commit: dict[type, list[Callable[[Any], None]]] = field(default_factory=dict)


_listeners = _Listeners()


def subscribe(event_type: type[E], handler: Callable[[E], None], during: bool = False) -> None:
    """Call `handler(event)` for every published `event_type` (see the module's docstring). Idempotent."""
    table = _listeners.during if during else _listeners.after_commit
    handlers = table.setdefault(event_type, [])
    if handler not in handlers:
        handlers.append(handler)


def subscriptions() -> list[tuple[str, str, bool]]:
    """Every subscription made, as (event name, listener's dotted name, during the transaction): the
    list docs/move-path.md shows, which a test holds to this."""
    found = []
    for during, table in ((True, _listeners.during), (False, _listeners.after_commit)):
        for event_type, handlers in table.items():
            found += [(event_type.__name__, f"{h.__module__}.{h.__qualname__}", during) for h in handlers]
    return sorted(found)


def publish(event: object) -> None:
    """Tell the listeners of `type(event)`: those `during` the transaction now, the others on commit."""
    for handler in _listeners.during.get(type(event), []):
        handler(event)
    for handler in _listeners.after_commit.get(type(event), []):
        transaction.on_commit(partial(handler, event), robust=True)
