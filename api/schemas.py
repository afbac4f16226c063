"""The API's request and response shapes (they are the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from ninja import Field, Schema
from pydantic import BaseModel, ConfigDict

from games.engines.registry import GAMES

MAX_ID = 2**31 - 1  # ids and revisions past this are refused by the schema, not by PostgreSQL


# The games' slugs, an enum in the schema: a request naming another game is malformed.
GameSlug = StrEnum("GameSlug", {slug.replace("-", "_"): slug for slug in sorted(GAMES)})
BotLevel = Literal["random", "normal", "hard"]


class Error(Schema):
    detail: str


class Me(Schema):
    username: str
    name: str
    is_bot: bool


class GameOption(Schema):
    name: str
    kind: str
    default: Any
    label: str
    choices: list[list[str]]
    min_value: int | None
    max_value: int | None
    help: str


class Game(Schema):
    slug: str
    name: str
    min_players: int
    max_players: int
    bot_levels: list[str]
    options: list[GameOption]
    moves: dict[str, list[str]] = Field(description="Each move type and the fields a move of that type may have")


class MatchFilter(StrEnum):
    all = "all"
    my_turn = "my_turn"
    waiting = "waiting"
    finished = "finished"
    invited = "invited"
    open = "open"


class MatchSummary(Schema):
    id: int
    game: str
    game_name: str
    status: str
    seat: int
    my_turn: bool
    invited: bool
    version: int
    revision: int
    deadline: datetime | None = Field(description="My own deadline when it is my turn")


class SeatOut(Schema):
    number: int
    name: str
    username: str | None
    is_bot: bool
    is_open: bool
    invited: bool
    to_act: bool
    is_viewer: bool
    won: bool
    deadline: datetime | None
    time_left: str
    reserve: str
    on_vacation: bool
    handed_to_bot: bool


class MatchInfoOut(Schema):
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


class MatchFacts(Schema):
    match: MatchInfoOut
    seats: list[SeatOut]


class Clock(Schema):
    preset: str
    turn_seconds: int
    deadline: datetime | None = Field(description="My deadline (when it is my turn), else the match's earliest")
    time_left: str
    reserve: str


class PlayerViewOut(Schema):
    """Exactly what the board page shows this viewer, from the same player_view."""

    match: MatchInfoOut
    seats: list[SeatOut]
    seat: int | None
    my_turn: bool
    waiting_for: str
    version: int
    view: dict[str, Any] | None
    legal: list[dict[str, Any]]
    history: list[tuple[int, list[str]]]
    clock: Clock
    chat: list[dict[str, Any]] | None
    can_chat: bool
    lobby: dict[str, Any]


class MoveBody(BaseModel):
    """A move: its type and that type's fields (GET /games lists them per game). A pydantic model, not a
    ninja Schema, so that the other fields reach the engine, which refuses unknown ones (400)."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(min_length=1, max_length=40, description="The move's type, e.g. take, move, plant")


class MoveIn(Schema):
    version: int = Field(ge=0, le=MAX_ID, description="The state version the move was chosen on")
    move: MoveBody = Field(description="One of the legal moves, as the view lists them")


class Events(Schema):
    changed: bool
    revision: int
    version: int
    status: str


class SeatIn(Schema):
    kind: Literal["open", "bot", "invite"]
    level: BotLevel | Literal[""] = Field("", description="For a bot: random, normal or hard")
    username: str = Field("", max_length=150, description="For an invitation")


class ClockIn(Schema):
    preset: Literal["daily", "relaxed", "live", "custom"] = "daily"
    turn_minutes: int | None = Field(None, ge=1, le=60 * 24 * 14)
    reserve_periods: int | None = Field(None, ge=0, le=30)
    period_minutes: int | None = Field(None, ge=1, le=60 * 24 * 7)
    weekend_pause: bool = False


class MatchIn(Schema):
    game: GameSlug
    others: list[SeatIn] = Field(
        description="The seats after mine (I take the first): open, a bot or an invited player", max_length=8
    )
    options: dict[str, bool | int | str] = Field(
        default_factory=dict,
        description="The game's options by name (GET /games): a yes-or-no option takes true or false, a number "
        "a whole number, a choice one of its values as a string; anything else is a 400",
    )
    clock: ClockIn = Field(default_factory=ClockIn)
    spectators_read_chat: bool = False
    rated: bool = Field(True, description="Rated (between people: your rating; with a bot: your rating against bots)")
