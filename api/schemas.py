"""The API's request and response shapes (they are the OpenAPI schema)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, Union, get_type_hints

from ninja import Field, Schema
from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictBool, StrictInt, create_model

from games.engines.base import Engine, Option
from games.engines.registry import GAMES, available_engines
from games.presenters import MatchInfo, SeatInfo

MAX_ID = 2**31 - 1  # ids and revisions past this are refused by the schema, not by PostgreSQL


# The games' slugs, an enum in the schema: a request naming another game is malformed.
GameSlug = StrEnum("GameSlug", {slug.replace("-", "_"): slug for slug in sorted(GAMES)})
BotLevel = Literal["random", "normal", "hard"]


class Error(Schema):
    detail: str


class In(Schema):
    """A request body's part: a field the schema does not name is refused (additionalProperties false),
    so that what the schema calls valid is what the server takes."""

    model_config = ConfigDict(extra="forbid")


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


def schema_of(source: type, name: str) -> type[Schema]:
    """A response schema with the fields (names, types and defaults) of one of games' presenter
    dataclasses: the API answers with what the board page gets, so that shape is written once, in
    games/presenters.py, and the schema follows it."""
    hints = get_type_hints(source)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(source):
        if f.default_factory is not dataclasses.MISSING:
            fields[f.name] = (hints[f.name], Field(default_factory=f.default_factory))
        else:
            fields[f.name] = (hints[f.name], ... if f.default is dataclasses.MISSING else f.default)
    return create_model(name, __base__=Schema, **fields)


MatchInfoOut = schema_of(MatchInfo, "MatchInfoOut")
SeatOut = schema_of(SeatInfo, "SeatOut")


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


class MoveIn(In):
    version: int = Field(ge=0, le=MAX_ID, description="The state version the move was chosen on")
    move: MoveBody = Field(description="One of the legal moves, as the view lists them")


class Events(Schema):
    changed: bool
    revision: int
    version: int
    status: str


USERNAME = r"^[\w.@+-]+$"  # Django's usernames


class OpenSeatIn(In):
    kind: Literal["open"]


class BotSeatIn(In):
    kind: Literal["bot"]
    level: BotLevel = Field(description="random, normal or hard")


class InviteSeatIn(In):
    kind: Literal["invite"]
    username: str = Field(min_length=1, max_length=150, pattern=USERNAME, description="404 when no such player")


SeatIn = Annotated[OpenSeatIn | BotSeatIn | InviteSeatIn, Field(discriminator="kind")]


class PresetClockIn(In):
    preset: Literal["daily", "relaxed", "live"]
    weekend_pause: bool = False


class CustomClockIn(In):
    preset: Literal["custom"]
    turn_minutes: int = Field(ge=1, le=60 * 24 * 14)
    reserve_periods: int = Field(ge=0, le=30)
    period_minutes: int = Field(ge=1, le=60 * 24 * 7)
    weekend_pause: bool = False


ClockIn = Annotated[PresetClockIn | CustomClockIn, Field(discriminator="preset")]


def _whole(value: Any) -> Any:
    """3.0 is the whole number 3 (JSON Schema's integers include it); "3" and true stay refused."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


WholeNumber = Annotated[StrictInt, BeforeValidator(_whole)]


def _option_field(option: Option) -> tuple[Any, Any]:
    """One option as a strictly typed field: "maybe" is no yes-or-no, "3" no number."""
    if option.kind == "bool":
        kind: Any = StrictBool
        extra: dict[str, Any] = {}
    elif option.kind == "int":
        kind, extra = WholeNumber, {"ge": option.min_value, "le": option.max_value}
    else:
        kind, extra = Literal[tuple(value for value, _ in option.choices)], {}
    return kind, Field(option.default, description=option.help or option.label, **extra)


def _daily() -> PresetClockIn:
    return PresetClockIn(preset="daily")


def _words(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.split("-"))


def _match_in(slug: str, engine: Engine, challenge: bool = False) -> type[Schema]:
    """The body that creates a match of one game: its options, its number of seats. A challenge's
    names the challenged player, who takes the seat after mine; `others` are the seats after that."""
    options = create_model(
        f"{_words(slug)}Options",
        __config__=ConfigDict(extra="forbid", strict=True),
        **{option.name: _option_field(option) for option in engine.options},
    )
    taken = 2 if challenge else 1
    no_more = {"default_factory": list} if engine.min_players <= taken else {}  # a challenge may need no others
    fields: dict[str, Any] = {
        "game": (Literal[slug], ...),
        "others": (
            list[SeatIn],
            Field(
                **no_more,
                min_length=max(0, engine.min_players - taken),
                max_length=engine.max_players - taken,
                description="The seats after mine"
                + (" and the challenged player's" if challenge else " (I take the first)")
                + ": open, a bot or an invited player",
            ),
        ),
        "options": (options, Field(default_factory=options, description="Absent options take their defaults")),
        "clock": (ClockIn, Field(default_factory=_daily, description="daily when absent")),
        "spectators_read_chat": (bool, False),
        "rated": (bool, Field(True, description="Rated (between people: your rating; with a bot: against bots)")),
    }
    if challenge:
        whom = Field(min_length=1, max_length=150, pattern=USERNAME, description="Whom to challenge")
        fields["username"] = (str, whom)
    name = f"{_words(slug)}{'ChallengeIn' if challenge else 'MatchIn'}"
    return create_model(name, __base__=In, **fields)


def _bodies(challenge: bool) -> Any:
    variants = tuple(_match_in(slug, engine, challenge) for slug, engine in sorted(available_engines().items()))
    return Annotated[Union[variants], Field(discriminator="game")]  # noqa: UP007


MatchIn = _bodies(challenge=False)
ChallengeIn = _bodies(challenge=True)
