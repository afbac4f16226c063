"""The one contract every game engine follows (see ../shared/design/ENGINE.md).

Engines are plain Python: no Django import anywhere under games/engines/ (a test enforces it).
The state is JSON data (dicts, lists, str, int, bool, None; dict keys are strings). Randomness
lives in the state (ruling ALL-2): `state["rng"]` holds the secret seed and a draw counter, and
`draw_rng(state)` gives a generator for one use and advances the counter, so replaying the seed
plus the move log rebuilds the state exactly.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engines.words import Msg, gettext_noop, logged, stored

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]
# A log entry: {"text": "...", "audience": "all" | [seat, ...]}. Text may name seats as
# "{p0}".."{p7}"; the site replaces them with the seats' display names.
LogEntry = dict[str, Any]
# A bot: (its seat's view, its legal moves, its own generator) -> a move. It never sees the state.
Bot = Callable[[View, list[Move], random.Random], Move]


class IllegalMove(Exception):
    """A move the rules refuse. The message is shown to the player as it is."""


class BadOptions(ValueError):
    """Match options that do not fit the game. The message is shown to the player."""


@dataclass(frozen=True)
class Option:
    """One match option. kind is "bool", "int" or "choice"."""

    name: str
    kind: str
    default: Any
    label: str
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) for kind "choice"
    min_value: int | None = None
    max_value: int | None = None
    help: str = ""

    def parse(self, raw: Any) -> Any:
        """Turn a form or command-line value into the option's type, or raise BadOptions."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off", ""):
                return False
            raise BadOptions(f"{self.label}: expected yes or no, got {raw!r}.")
        if self.kind == "int":
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise BadOptions(f"{self.label}: expected a whole number, got {raw!r}.") from None
            if self.min_value is not None and value < self.min_value:
                raise BadOptions(f"{self.label}: at least {self.min_value}.")
            if self.max_value is not None and value > self.max_value:
                raise BadOptions(f"{self.label}: at most {self.max_value}.")
            return value
        if self.kind == "choice":
            value = str(raw).strip()
            if value not in {v for v, _ in self.choices}:
                allowed = ", ".join(v for v, _ in self.choices)
                raise BadOptions(f"{self.label}: choose one of {allowed}.")
            return value
        raise AssertionError(f"unknown option kind {self.kind}")


@dataclass(frozen=True)
class Result:
    """How a finished game ended. winners may hold several seats (a team) or none (a draw)."""

    winners: list[int]
    scores: list[float | int]
    reason: str  # English; a Msg (games.engines.words) keeps its words for other languages
    draw: bool = False
    reason_words: dict[str, Any] = field(default_factory=dict)  # {"msg", "args"}: from `reason` if a Msg

    def __post_init__(self) -> None:
        if isinstance(self.reason, Msg) and not self.reason_words:
            object.__setattr__(self, "reason_words", stored(self.reason))

    def as_dict(self) -> dict[str, Any]:
        return {
            "winners": self.winners,
            "scores": self.scores,
            "reason": str(self.reason),
            "draw": self.draw,
            "reason_words": self.reason_words,
        }


class Engine:
    """Base class: one instance per game (`ENGINE` in the game's engine.py), named by the game's spec
    (its package's `SPEC`, listed in games/engines/registry.py), which also names its bots."""

    slug: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    # What a deadline does (ruling ALL-4 / SC-7): "bot" = the site lets a bot play the late
    # seat's turn; "engine" = the site calls apply_timeout().
    timeout_policy: str = "engine"
    # Every move type and the fields a move of that type may have ("type" among them). A move with
    # another type or another field is malformed: refused before the turn is even looked
    # at, and never stored. Empty: the engine checks its moves' shape itself.
    move_fields: dict[str, frozenset[str]] = {}

    # --- moves ---------------------------------------------------------------------------
    def check_move_fields(self, move: Move) -> None:
        """Raise IllegalMove when `move` is not an object with a known type and only that type's fields."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove(Msg(gettext_noop("A move must be an object with a type.")))
        if not self.move_fields:
            return
        kind = move["type"]
        allowed = self.move_fields.get(kind)
        if allowed is None:
            raise IllegalMove(Msg(gettext_noop("Unknown kind of move: {kind}."), kind=repr(kind)))
        unknown = sorted(set(move) - allowed)
        if unknown:
            raise IllegalMove(
                Msg(
                    gettext_noop("A {kind} move has no field {fields}."),
                    kind=kind,
                    fields=", ".join(repr(k) for k in unknown),
                )
            )

    # --- options -------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any] | None, players: int) -> dict[str, Any]:
        """Fill defaults, parse values, refuse unknown names. Raises BadOptions."""
        raw = dict(raw or {})
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"{self.name} is for {self.min_players} to {self.max_players} players.")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise BadOptions(f"Unknown option for {self.name}: {', '.join(unknown)}.")
        return {name: (o.parse(raw[name]) if name in raw else o.default) for name, o in known.items()}

    # --- the game ------------------------------------------------------------------------
    def new_state(self, players: int, options: dict[str, Any], seed: int) -> State:
        """The initial state. The only place a seed enters (store it with new_rng)."""
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        """Seats that may act now, sorted; several = a simultaneous step; empty = game over."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Concrete moves `apply` accepts for this seat now (empty when the seat may not act).

        Must depend only on what the seat may know (a bot is given this list). Where the full set
        is huge (a Flower Field challenge) an engine may list a representative part and document
        it; `apply` stays the judge."""
        raise NotImplementedError

    def board_moves(self, state: State, seat: int) -> list[Move]:
        """The legal moves a board may offer as controls (its presenter gets these). All of them unless
        the engine lists moves no board shows, which the page then need not pay for."""
        return self.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[LogEntry]]:
        """Return (new state, log entries); never mutate `state`. Raise IllegalMove."""
        raise NotImplementedError

    def apply_timeout(self, state: State, seat: int) -> tuple[State, list[LogEntry]]:
        """The game's own consequence of `seat` running out of time (policy "engine")."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None, ended: bool = False) -> View:
        """What `seat` may know (None = spectator); everything once the game is over (ALL-3).

        `ended`: the match has ended outside the rules (a moderator's abort or adjudication), so
        the state is still mid-game; after any end everything is public, so show it all too."""
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        """None while the game goes on."""
        raise NotImplementedError

    def hidden_twin(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A state `seat` cannot tell from `state`: everything the rules hide from that seat is
        dealt anew (other hands, pile orders, hidden placements) and the generator's seed changes.
        The audit renders every page for both and requires them to be identical (ALL-2, ALL-3).
        Engines with hidden information override this and call the base for the seed."""
        twin = clone(state)
        twin["rng"] = new_rng(rng.getrandbits(128))
        return twin

    def turn_key(self, state: State) -> Any:
        """What identifies the current turn, for the clocks (ruling ALL-1: one clock covers a whole
        turn, all its decisions included). When a seat that just moved is still to act, the site
        restarts its clock only if this changed. None (the default): every move is a whole turn."""
        return None

    def max_moves(self, players: int, options: dict[str, Any]) -> int:
        """An upper bound on apply() calls in one game; the conformance test holds engines to it."""
        raise NotImplementedError

    def check_invariants(self, state: State) -> None:
        """Raise AssertionError if the state breaks a rule of the game (selfplay calls it)."""

    def check_vector(self, case: dict[str, Any]) -> None:
        """Check one rule-vector case (../shared/vectors); raise AssertionError when it fails.

        A kind the engine does not know must fail, so override and fall back to this."""
        raise AssertionError(f"{self.slug}: unknown rule-vector kind {case.get('kind')!r}")


# --- helpers shared by engines -------------------------------------------------------------


def clone(state: State) -> State:
    """A deep copy of a state, which is JSON data: a plain recursive copy is several times faster than
    copy.deepcopy (a replay page copies its state at every move up to the one it shows)."""
    return json_copy(state)


def json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    if isinstance(value, tuple):  # not JSON, but an engine may hold one for a while: copied as deepcopy would
        return tuple(json_copy(item) for item in value)
    return value


def new_rng(seed: int) -> dict[str, Any]:
    """The generator's state kept in a game state (ALL-2). Never put it in a view."""
    return {"seed": str(seed), "draws": 0}


def draw_rng(state: State) -> random.Random:
    """A generator for the next chance event of this state; advances the stored counter.

    Call it on the new state inside apply(), never on the input state."""
    rng_state = state["rng"]
    digest = hashlib.sha256(f"{rng_state['seed']}:{rng_state['draws']}".encode()).digest()
    rng_state["draws"] += 1
    return random.Random(int.from_bytes(digest, "big"))


def resignation_result(seat: int, players: int) -> Result:
    """Ruling SITE-RESIGN: in a game of two, a resignation ends it and the other seat wins.

    The site applies this end (as it applies a timeout's), so no engine's state changes: the move log
    keeps the resignation as a step of kind "resign" that the replay passes over."""
    if players != 2 or seat not in (0, 1):
        raise ValueError("a resignation ends only a game of two")
    return Result(winners=[1 - seat], scores=[], reason=Msg(RESIGNED, name=f"{{p{seat}}}"))


RESIGNED = gettext_noop("{name} resigned.")
RESIGNED_BOT_PLAYS_ON = gettext_noop("{name} resigned: a bot plays the seat to the end; they are ranked last.")


def resignation_log(seat: int, bot_plays_on: bool) -> LogEntry:
    """The log entry of a resignation, for everyone (ruling SITE-RESIGN); the seat as {pN}."""
    return logged(RESIGNED_BOT_PLAYS_ON if bot_plays_on else RESIGNED, name=f"{{p{seat}}}")


def log(text: str, audience: str | list[int] = "all") -> LogEntry:
    return {"text": text, "audience": audience}


def random_bot(view: View, legal: list[Move], rng: random.Random) -> Move:
    """The `random` level of every game: any legal move."""
    return rng.choice(legal)
