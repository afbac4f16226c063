"""The one place that decides what a viewer of a match gets: the board's templates get nothing else.

The board page and its fragment get a PlayerView, never the Match model (it holds the state and the
seed): a MatchInfo with public fields and the engine's view for the viewer's seat (ruling ALL-3).
Other pages (the dashboard's lists) do get Match rows, and show none of their state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clock
from games.engines.registry import get_spec
from games.engines.spec import BoardInput
from games.models import BOT_LEVELS, Match, Seat, fill_names, seat_names, texts_for
from games.reads import can_abort, engine_of, match_moves, seat_of


@dataclass
class SeatInfo:
    number: int
    name: str
    username: str | None
    is_bot: bool
    is_open: bool
    invited: bool
    to_act: bool
    is_viewer: bool
    won: bool = False
    deadline: datetime | None = None
    time_left: str = ""  # in words
    reserve: str = ""  # in words
    on_vacation: bool = False
    handed_to_bot: bool = False
    resigned: bool = False  # ruling SITE-RESIGN


@dataclass
class MatchInfo:
    id: int
    game: str
    game_name: str
    status: str
    status_label: str
    version: int
    revision: int
    created_by_id: int
    created: datetime
    started: datetime | None
    ended: datetime | None
    deadline: datetime | None
    time_preset: str
    turn_seconds: int
    options: dict[str, Any]
    end_reason: str
    result: dict[str, Any] | None
    is_over: bool
    url: str

    @property
    def move_url(self) -> str:
        """Where the board posts a move (a tutorial's board posts elsewhere)."""
        return reverse("move", args=[self.id])


@dataclass
class PlayerView:
    match: MatchInfo
    seats: list[SeatInfo]
    seat: int | None  # the viewer's seat number, None for everyone else
    my_turn: bool
    waiting_for: str  # the names of the seats to act, in words
    view: dict[str, Any] | None  # the engine's view for this seat (ALL-3)
    legal: list[dict[str, Any]]  # the moves the board may offer (Engine.board_moves)
    history: list[tuple[int, list[str]]]  # (move number, texts), oldest first
    board: Any = None  # the game's board: its presenter's typed sections
    lobby: dict[str, Any] = field(default_factory=dict)  # what the viewer may do before the start
    chat: list[dict[str, Any]] | None = None  # None: this viewer may not read the chat (moderation's part)
    can_chat: bool = False
    rating_changes: list[Any] = field(default_factory=list)  # a finished match's, per seat (ratings' part)
    can_resign: bool = False  # ruling SITE-RESIGN: the viewer plays a seat of this running match
    can_abort: bool = False  # ruling SITE-ABORT: ... and not every seat has made its first move


def match_info(match: Match, names: dict[str, str]) -> MatchInfo:
    """`names`: the seats' public names by placeholder ({p0}..), for the words of the end."""
    return MatchInfo(
        id=match.pk,
        game=match.game,
        game_name=match.game_name,
        status=match.status,
        status_label=match.get_status_display(),
        version=match.version,
        revision=match.revision,
        created_by_id=match.created_by_id,
        created=match.created,
        started=match.started,
        ended=match.ended,
        deadline=match.deadline,
        time_preset=match.time_preset,
        turn_seconds=match.turn_seconds,
        options=match.options,
        end_reason=match.end_reason_text(names),
        result=match.result,
        is_over=match.is_over,
        url=match.get_absolute_url(),
    )


# What other apps add to a viewer's PlayerView (moderation: the chat; ratings: a finished match's
# rating changes): `part(match, user, info, seats)` sets its fields. Each app registers its part in
# its AppConfig.ready(), so games imports neither; every caller of player_view (the board,
# the API) gets them.
ViewPart = Callable[[Match, Any, "PlayerView", list[Seat]], None]
_view_parts: list[ViewPart] = []


def add_view_part(part: ViewPart) -> None:
    """Register `part` (idempotent)."""
    if part not in _view_parts:
        _view_parts.append(part)


def player_view(match: Match, user, params: dict[str, str] | None = None) -> PlayerView:
    """What `user` (a seated player, another user or an anonymous visitor) may see of `match`."""
    seats: list[Seat] = list(match.seats.all())
    viewer_seat = seat_of(match, user)
    number = viewer_seat.number if viewer_seat else None
    engine = engine_of(match)
    view = None
    legal: list[dict[str, Any]] = []
    # ALL-3: after the end everything is public, however the match ended (a moderator's abort or
    # adjudication leaves the engine's state mid-game, so the engine is told).
    over = match.is_over
    if match.state is not None:
        view = engine.view(match.state, number, ended=over)
        if viewer_seat and viewer_seat.to_act and match.status == Match.Status.ACTIVE:
            legal = engine.board_moves(match.state, number)
    info = PlayerView(
        match=match_info(match, seat_names(seats)),
        seats=_seat_infos(match, seats, number),
        seat=number,
        my_turn=bool(viewer_seat and viewer_seat.to_act),
        waiting_for=_(" and ").join(s.public_name for s in seats if s.to_act),
        view=view,
        legal=legal,
        history=_history(match, number, over, seat_names(seats), whole=False),
    )
    if view is not None:
        info.board = board_context(match.game, info, params or {})
    info.can_resign = viewer_seat is not None and match.status == Match.Status.ACTIVE
    info.can_abort = info.can_resign and can_abort(match, seats)
    if match.status == Match.Status.OPEN and user.is_authenticated:
        info.lobby = lobby_choices(match, engine, seats, user)
    for part in _view_parts:
        part(match, user, info, seats)
    return info


@dataclass
class HistoryPage:
    match: MatchInfo
    history: list[tuple[int, list[str]]]  # (move number, texts), oldest first


def history_page(match: Match, user) -> HistoryPage:
    """The whole move history page: the match's public fields and every move's texts as the board's
    history shows them to `user`, without the board itself (its view, presenter and parts)."""
    seats: list[Seat] = list(match.seats.all())
    viewer_seat = seat_of(match, user)
    names = seat_names(seats)
    number = viewer_seat.number if viewer_seat else None
    history = _history(match, number, match.is_over, names, whole=True)
    return HistoryPage(match=match_info(match, names), history=history)


def _seat_infos(match: Match, seats: list[Seat], viewer: int | None) -> list[SeatInfo]:
    now = timezone.now()
    winners = set((match.result or {}).get("winners", []))
    names = seat_names(seats)
    return [
        SeatInfo(
            number=s.number,
            name=names[f"p{s.number}"],
            username=s.user.username if s.user_id else None,
            is_bot=s.is_bot,
            is_open=s.is_open,
            invited=s.user_id is not None and not s.accepted,
            to_act=s.to_act and not match.is_over,  # an ended match has nobody to move, whatever the row says
            is_viewer=s.number == viewer,
            won=s.number in winners and not s.resigned,
            deadline=s.deadline,
            time_left=clock.in_words((s.deadline - now).total_seconds()) if s.deadline else "",
            reserve=_reserve_words(s.reserve_left, match.period_seconds) if match.reserve_periods else "",
            on_vacation=bool(s.user_id and s.user.vacation_started and match.time_preset != "live"),
            handed_to_bot=s.handed_to_bot,
            resigned=s.resigned,
        )
        for s in seats
    ]


def _history(match: Match, seat: int | None, over: bool, names: dict[str, str], whole: bool) -> list:
    """(move number, texts) the viewer may read, oldest first: the board's tail is kept on the match,
    the whole history (its own page) comes from the match's moves (rows or their archive)."""
    if whole:
        moves = [{"number": m.number, "log": m.log} for m in match_moves(match)]
    else:
        moves = match.history_tail
    history = []
    for move in moves:
        texts = [fill_names(t, names) for t in texts_for(move["log"], seat, everything=over)]
        if texts:
            history.append((move["number"], texts))
    return history


def _reserve_words(periods: int, period_seconds: int) -> str:
    if not periods:
        return _("no reserve left")
    return ngettext("%(n)d reserve period of %(length)s", "%(n)d reserve periods of %(length)s", periods) % {
        "n": periods,
        "length": clock.in_words(period_seconds),
    }


def lobby_choices(match: Match, engine, seats: list[Seat], user) -> dict[str, Any]:
    mine = next((s for s in seats if s.user_id == user.pk), None)
    is_creator = match.created_by_id == user.pk
    has_open = any(s.is_open for s in seats)
    creator = next((s for s in seats if s.user_id == match.created_by_id), None)
    return {
        "invited": mine is not None and not mine.accepted,
        "invited_by": creator.public_name if creator is not None and mine is not None and not mine.accepted else "",
        "can_join": mine is None and has_open,
        # What a player joins: the clock, the options that differ from the game's, the seats taken.
        "terms": match.offer_words(),
        "can_leave": mine is not None and not is_creator,
        "leave_label": _("Decline the invitation") if mine is not None and not mine.accepted else _("Leave the match"),
        "can_cancel": is_creator,
        "editable_seats": [s.number for s in seats if is_creator and not (s.user_id and s.accepted)],
        "bot_levels": [(f"bot:{level}", label) for level, label in BOT_LEVELS if level in get_spec(engine.slug).bots],
    }


def board_context(game: str, info: PlayerView, params: dict[str, str]) -> Any:
    """The game's presenter (its spec's `present`) turns the viewer's engine view into its board."""
    spec = get_spec(game)
    given = BoardInput(
        view=info.view or {},
        legal=info.legal,
        seat=info.seat,
        my_turn=info.my_turn,
        names=[s.name for s in info.seats],
        select=params.get("select", ""),
        is_over=info.match.is_over,
    )
    return spec.present(given)
