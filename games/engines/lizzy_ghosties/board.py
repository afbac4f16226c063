"""The Lizzy Ghosties board as typed sections (status, decision, the middle of the table, the seats around
it, the end) for its Jinja2 template.

Everything comes from the viewer's engine view and legal moves (rulings LG-2, ALL-3): a stack is its top
card and its size, a ghost pile and the side stack only a size, and what a move sets off (a new event, an
extra team turn) is the engine's `move_effects`. Buttons are offered only for the viewer's legal moves,
on the stack whose top card they move. A ghost double is picked on the table one card at a time:
?select=d<head source><body source>, a source being a seat digit or "b" for the Burn Lizzy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.engines.dizzy_cards import PARTS, describe, parse
from games.engines.lizzy_card import FILLS, CardArt, LizzyCard
from games.engines.lizzy_ghosties.rules import BURN
from games.engines.spec import BoardInput, MoveChoice, move_json, plural

# The ring of places around the table on a 3 x 3 grid (row, column), clockwise seen from above,
# beginning at the bottom middle where the viewer sits; the middle cell is the table itself.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
# Which ring places each number of players uses: spread evenly, the viewer at the bottom.
LAYOUT = {
    3: (0, 2, 6),
    4: (0, 2, 4, 6),
    5: (0, 2, 3, 5, 6),
    6: (0, 1, 3, 4, 5, 7),
    7: (0, 1, 2, 3, 5, 6, 7),
    8: (0, 1, 2, 3, 4, 5, 6, 7),
}
PHASES = {
    "opening": ("Opening", "every player is still a Lizzy"),
    "transition": ("Transition", "ghosts haunt the living Lizzies"),
    "showdown": ("Showdown", "team Lizzies against team Ghosties"),
    "over": ("Game over", "the cards are counted"),
}
EVENT_NAMES = {"steal": "steal event", "burn": "burn event", "ghost": "ghost event"}
EFFECT_WORDS = {
    "event": " (a double: a new event)",
    "extra_turn": " (a new double: an extra team turn)",
    "turn_ends": " (your turn ends)",
}
GHOST_DETAIL = (
    "A ghost steals one top card into its face-down pile, or takes one top card from each of three "
    "Lizzies forming a double (a loaned Lizzy) and starts a ghost event."
)
DETAILS = {
    "ghost_turn": GHOST_DETAIL,
    "showdown_ghosts": GHOST_DETAIL,
    "showdown_lizzies": "Team Lizzies move one top card between their two Lizzies, or take a Burn Lizzy top card.",
}
FEW_CHOICES = 6  # the list of choices in words starts open up to this many
PLACEHOLDER = re.compile(r"\{p(\d)\}")

Place = tuple[Any, str]  # one stack on the table: (a seat, BURN or "loaned", a part)


@dataclass(frozen=True)
class Control:
    """A choice on the table: a button posting a legal move (`json`) or a link picking a card of a ghost
    double (`select`). `short` is its visible text; screen readers hear `short` + `rest`."""

    short: str
    rest: str = ""
    json: str = ""
    select: str = ""
    focus: bool = False  # the first choice of the decision: focused after the board is swapped in

    @property
    def words(self) -> str:
        return self.short + self.rest


@dataclass(frozen=True)
class Stack:
    id: str  # "2-head", "burn-tail", "loaned-body"
    part: str
    size: int
    card: LizzyCard | None  # the top card, the only one anyone sees (LG-2)
    depth: int  # card edges drawn under the top: a look only
    words: str
    controls: list[Control]
    picked: bool  # picked for the ghost double being built


@dataclass(frozen=True)
class Lizzy:
    """A Lizzy in the middle of the table: the Burn Lizzy or a ghost's loaned Lizzy."""

    title: str
    count: str  # "6 cards", "" for a loaned Lizzy
    stacks: list[Stack]
    words: str  # what its top cards make


@dataclass(frozen=True)
class Die:
    part: str
    colour: str
    pattern: str
    fill: str
    words: str  # "head die: red dots"


@dataclass(frozen=True)
class Draw:
    """The last side-stack card or Dizzy Dice throw, public to all (LG-5, LG-11)."""

    text: str
    won: bool
    card: LizzyCard | None
    dice: list[Die]
    golden: bool


@dataclass(frozen=True)
class Middle:
    burn: Lizzy
    loaned: Lizzy | None
    side_count: str
    side_back: LizzyCard
    side_depth: int
    draw_title: str
    draw: Draw | None


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    you: bool
    row: int  # its place on the 3 x 3 table grid
    column: int
    ghost: bool
    cards: str  # "14 cards"
    team: str  # "Lizzies" or "Ghosties" from the showdown on, else ""
    to_act: bool
    passed: bool  # the Lizzy being passed now
    target: bool  # the next attempt of a won event
    won: bool
    stacks: list[Stack]  # a living Lizzy's three stacks; none for a ghost
    lizzy_words: str
    pile: LizzyCard | None  # a ghost's face-down pile
    pile_count: str
    pile_depth: int


@dataclass(frozen=True)
class Status:
    phase: str
    label: str
    meaning: str
    cycle: str  # "cycle 4 of at most 40", "" in the showdown and after the end
    dicey: bool
    first_player: str
    teams: str
    showdown: str


@dataclass(frozen=True)
class Decision:
    prompt: str
    detail: str
    mine: bool
    draw_text: str  # the draw that started the event being decided, "" outside events
    hint: str
    skip: MoveChoice | None
    choices: list[MoveChoice]  # every legal move in words
    open_list: bool
    picking: bool  # a ghost double is half picked: offer to start it again


@dataclass(frozen=True)
class ScoreRow:
    name: str
    team: str
    cards: int
    won: bool


@dataclass(frozen=True)
class Outcome:
    headline: str
    reason: str
    rows: list[ScoreRow]


@dataclass(frozen=True)
class Strip:
    title: str
    cards: list[LizzyCard]


@dataclass(frozen=True)
class Reveal:
    """After the end every card is public (ALL-3): one group of strips per seat, Burn Lizzy, side stack."""

    title: str
    strips: list[Strip]


@dataclass(frozen=True)
class Board:
    status: Status
    outcome: Outcome | None
    decision: Decision | None
    middle: Middle
    seats: list[Seat]
    revealed: list[Reveal]


@dataclass(frozen=True)
class Controls:
    """The viewer's legal moves laid out: by stack on the table, skip and every choice in words."""

    at: dict[Place, list[Control]]
    picked: list[Place]  # the cards of a ghost double picked so far, head first
    skip: MoveChoice | None
    choices: list[MoveChoice]


class Table:
    """What every section needs: the view, the names, the card art of this one board."""

    def __init__(self, given: BoardInput) -> None:
        self.view = given.view
        self.viewer = given.seat
        self.names = given.names
        self.select = given.select
        self.art = CardArt("lg")
        self.legal = given.legal if given.my_turn and not given.is_over else []
        self.effects = {move_json(e["move"]): e["effect"] for e in self.view.get("move_effects", [])}

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    def whose(self, source: int | str) -> str:
        if source == BURN:
            return "the Burn Lizzy's"
        return "your" if source == self.viewer else f"{self.name(source)}'s"

    def onto(self, seat: int) -> str:
        return "your Lizzy" if seat == self.viewer else f"{self.name(seat)}'s Lizzy"

    def top(self, source: int | str, part: str) -> str:
        stacks = self.view["burn"]["stacks"] if source == BURN else self.view["seats"][source]["stacks"]
        return stacks[part]["top"]

    def effect_words(self, move: str) -> str:
        """What the engine says a legal move sets off, in words ("" for nothing)."""
        return EFFECT_WORDS.get(self.effects.get(move, ""), "")

    def fill(self, text: str) -> str:
        """Engine texts name seats as {p0}..{p7}."""
        return PLACEHOLDER.sub(lambda found: self.name(int(found.group(1))), text)


def present(given: BoardInput) -> Board:
    table = Table(given)
    controls = _controls(table)
    return Board(
        status=_status(table),
        outcome=_outcome(table),
        decision=_decision(table, controls),
        middle=_middle(table, controls),
        seats=[_seat(table, controls, seat, place) for seat, place in _seat_places(table)],
        revealed=_revealed(table) if table.view["revealed"] else [],
    )


# --- the viewer's choices --------------------------------------------------------------------------


def _controls(table: Table) -> Controls:
    moves_at: dict[Place, list[Control]] = {}
    skip = None
    choices = []
    for move in table.legal:
        place, control = _move_control(table, move)
        choices.append(MoveChoice(control.json, control.words))
        if move["type"] == "skip":
            skip = choices[-1]
        elif place is not None:
            moves_at.setdefault(place, []).append(control)
    doubles = [move for move in table.legal if move["type"] == "ghost_double"]
    codes = _picked_codes(table.select, doubles)
    doubles_at = _double_controls(table, doubles, codes)
    # Halfway through a double, its next card comes first on a stack and takes the focus.
    first, then = (doubles_at, moves_at) if codes else (moves_at, doubles_at)
    at = {place: first.get(place, []) + then.get(place, []) for place in moves_at | doubles_at}
    focus = next((place for place in _draw_order(table) if place in (doubles_at if codes else at)), None)
    if focus is not None:
        at[focus] = [replace(at[focus][0], focus=True)] + at[focus][1:]
    picked = [(_source_of(code), part) for code, part in zip(codes, PARTS)]
    return Controls(at=at, picked=picked, skip=skip, choices=choices)


def _move_control(table: Table, move: dict[str, Any]) -> tuple[Place | None, Control]:
    """Where a legal move's button goes (the stack its card leaves; None: the decision panel) and its words."""
    kind = move["type"]
    value = move_json(move)
    effect = table.effect_words(value)
    if kind == "skip":
        return None, Control(_skip_words(table), json=value)
    if kind == "ghost_double":
        return None, Control("Grab the double", ": " + _double_words(table, move) + effect, json=value)
    part = move["part"]
    if kind == "give":
        card = describe(table.top(table.viewer, part))
        return (table.viewer, part), Control("Give", f" {table.name(move['to'])} your {card}{effect}", json=value)
    source = BURN if kind == "take_burn" else move["from"]
    card = f"{table.whose(source)} {describe(table.top(source, part))}"
    if kind == "move":
        short, rest = f"Move to {table.name(move['to'])}", f": {card} onto {table.onto(move['to'])}"
    elif kind == "take_burn":
        short = f"Take for {'you' if move['to'] == table.viewer else table.name(move['to'])}"
        rest = f": {card} onto {table.onto(move['to'])}"
    elif kind == "ghost_steal":
        short, rest = "Steal", f" {card} into your pile"
    elif kind == "burn":
        short, rest = "Burn", f" {card} onto the Burn Lizzy"
    else:
        event = table.view["pending"]["event"]
        on = "your loaned Lizzy" if event is not None and event["kind"] == "ghost" else "your Lizzy"
        short, rest = "Steal", f" {card} onto {on}"
    return (source, part), Control(short, rest + effect, json=value)


def _skip_words(table: Table) -> str:
    pending = table.view["pending"]
    event = pending["event"]
    if event is None:
        return f"Skip {table.name(pending['opponent'])}: neither steal nor give"
    if event["won"]:
        return f"Skip {table.name(event['targets'][0])}: take none of their cards"
    return "Take no card: end the event"


def _double_words(table: Table, move: dict[str, Any]) -> str:
    return ", ".join(f"{table.whose(move[part])} {describe(table.top(move[part], part))}" for part in PARTS)


def _code(source: int | str) -> str:
    return "b" if source == BURN else str(source)


def _source_of(code: str) -> int | str:
    return BURN if code == "b" else int(code)


def _picked_codes(select: str, doubles: list[dict[str, Any]]) -> str:
    """The sources picked so far from ?select=d.., kept only when some legal double begins with them."""
    if not select.startswith("d") or len(select) > 3:
        return ""
    codes = select[1:]
    prefixes = {"".join(_code(move[part]) for part in PARTS[: len(codes)]) for move in doubles}
    return codes if codes in prefixes else ""


def _double_controls(table: Table, doubles: list[dict[str, Any]], codes: str) -> dict[Place, list[Control]]:
    """The next card of a ghost double on the table: a link picking a head or a body, then a button for
    each tail that completes a legal double with the cards picked."""
    at: dict[Place, list[Control]] = {}
    if not doubles:
        return at
    part = PARTS[len(codes)]
    for move in doubles:
        if "".join(_code(move[p]) for p in PARTS[: len(codes)]) != codes:
            continue
        place = (move[part], part)
        card = f"{table.whose(move[part])} {describe(table.top(move[part], part))}"
        if part == "tail":
            value = move_json(move)
            rest = ": " + _double_words(table, move) + table.effect_words(value)
            control = Control("Grab the double", rest, json=value)
        elif place in at:
            continue
        else:
            control = Control(f"Pick as the {part}", f" of a double: {card}", select="d" + codes + _code(move[part]))
        at.setdefault(place, []).append(control)
    return at


def _draw_order(table: Table) -> list[Place]:
    """The stacks in the order the page draws them: the Burn Lizzy, then the seats from the viewer on."""
    return [(BURN, part) for part in PARTS] + [(seat, part) for seat, _ in _seat_places(table) for part in PARTS]


# --- the sections ----------------------------------------------------------------------------------


def _status(table: Table) -> Status:
    view = table.view
    phase = view["phase"]
    label, meaning = PHASES[phase]
    in_cycles = phase in ("opening", "transition")
    return Status(
        phase=phase,
        label=label,
        meaning=meaning,
        cycle=f"cycle {view['cycle']} of at most {view['max_cycles']}" if in_cycles else "",
        dicey=view["dicey"],
        first_player=table.name(view["first_player"]),
        teams=_team_words(table),
        showdown=_showdown_words(table),
    )


def _team_words(table: Table) -> str:
    teams = table.view["teams"]
    if not teams:
        return ""
    lizzies = _and([table.name(seat) for seat in sorted(teams["lizzies"])]) or "nobody"
    ghosts = _and([table.name(seat) for seat in sorted(teams["ghosts"])]) or "nobody"
    if table.view["phase"] == "transition":
        return f"Still Lizzies: {lizzies}. Ghosts: {ghosts}."
    return f"Team Lizzies: {lizzies}. Team Ghosties: {ghosts}."


def _showdown_words(table: Table) -> str:
    showdown = table.view["showdown"]
    if not showdown or table.view["phase"] == "over":
        return ""
    team = "Lizzies" if showdown["team"] == "lizzies" else "Ghosties"
    extra = " an extra turn (a new double)" if showdown["extra_turn"] else ""
    return f"Team turn {showdown['team_turns'] + 1} of at most {showdown['max_team_turns']}: team {team} plays{extra}."


def _decision(table: Table, controls: Controls) -> Decision | None:
    pending = table.view["pending"]
    if pending is None:
        return None
    event = pending["event"]
    mine = pending["seat"] == table.viewer and bool(table.legal)
    hint = ""
    if mine:
        hint = f"Use the buttons under the cards on the table{', or skip' if controls.skip else ''}."
        if any(move["type"] == "ghost_double" for move in table.legal):
            hint += " " + _double_hint(table, controls.picked)
    last = table.view["last_draw"]
    return Decision(
        prompt=table.fill(pending["prompt"]),
        detail=_detail(table, pending),
        mine=mine,
        draw_text=_draw_text(table, last) if event is not None and last else "",
        hint=hint,
        skip=controls.skip,
        choices=controls.choices,
        open_list=len(controls.choices) <= FEW_CHOICES,
        picking=bool(controls.picked),
    )


def _double_hint(table: Table, picked: list[Place]) -> str:
    if not picked:
        return "To grab a double, pick a head marked on the table, then a body, then a tail."
    chosen = _and([f"{table.whose(source)} {describe(table.top(source, part))}" for source, part in picked])
    return f"Double so far: {chosen}. Now pick a {PARTS[len(picked)]} marked on the table."


def _detail(table: Table, pending: dict[str, Any]) -> str:
    event = pending["event"]
    if pending["kind"] == "pass":
        acting = "you" if pending["seat"] == table.viewer else table.name(pending["seat"])
        return (
            "A Lizzy's turn passes every other living Lizzy clockwise; for each one "
            f"{acting} may steal a top card, give one, or skip."
        )
    if event is None:
        return DETAILS.get(pending["kind"], "")
    what = EVENT_NAMES[event["kind"]]
    if event["won"]:
        left = _and([table.name(seat) for seat in event["targets"]])
        text = f"The {what} was won: one attempt on each Lizzy in turn. Attempts left: {left}."
    else:
        text = f"The {what} was lost: one card of choice from any other living Lizzy."
    return text + " A new double during the event starts a new event (a chain)."


def _middle(table: Table, controls: Controls) -> Middle:
    view = table.view
    burn = Lizzy(
        title="Burn Lizzy",
        count=plural(view["burn_size"], "card"),
        stacks=_stacks(table, controls, BURN, view["burn"]["stacks"], "The Burn Lizzy's"),
        words=_lizzy_words(view["burn"]["lizzy"]),
    )
    loaned = None
    if view["loaned"]:
        ghost = "Your" if view["loaned"]["seat"] == table.viewer else f"{table.name(view['loaned']['seat'])}'s"
        loaned = Lizzy(
            title=f"{ghost} loaned Lizzy",
            count="",
            stacks=_stacks(table, controls, "loaned", view["loaned"]["stacks"], f"{ghost} loaned Lizzy's"),
            words=_lizzy_words(view["loaned"]["lizzy"]),
        )
    side = view["side_stack_size"]
    return Middle(
        burn=burn,
        loaned=loaned,
        side_count=plural(side, "card"),
        side_back=table.art.back(f"the side stack, face down: {plural(side, 'card')}"),
        side_depth=min(side, 4),
        draw_title="Last dice throw" if view["dicey"] else "Last draw",
        draw=_draw(table, view["last_draw"]),
    )


def _stacks(table: Table, controls: Controls, source: Any, stacks: dict[str, Any], owner: str) -> list[Stack]:
    found = []
    for part in PARTS:
        size, top = stacks[part]["size"], stacks[part]["top"]
        words = f"{owner} {part} stack: {plural(size, 'card')}" + (f", top card {describe(top)}" if top else "")
        found.append(
            Stack(
                id=f"{source}-{part}",
                part=part,
                size=size,
                card=table.art.card(top) if top else None,
                depth=min(size, 4),
                words=words,
                controls=controls.at.get((source, part), []),
                picked=(source, part) in controls.picked,
            )
        )
    return found


def _draw(table: Table, last: dict[str, Any] | None) -> Draw | None:
    if not last:
        return None
    return Draw(
        text=_draw_text(table, last),
        won=last["won"],
        card=table.art.card(last["card"]) if last["card"] else None,
        dice=[_die(card, part) for part, card in zip(PARTS, last["dice"] or [])],
        golden=last["golden"],
    )


def _draw_text(table: Table, last: dict[str, Any]) -> str:
    where = {"own": f"{table.whose(last['seat'])} own Lizzy", "burn": "the Burn Lizzy", "loaned": "a loaned Lizzy"}
    by = "you" if last["seat"] == table.viewer else table.name(last["seat"])
    text = f"A double on {where[last['on']]} started a {EVENT_NAMES[last['event']]} for {by}: "
    if last["golden"]:
        how = "a golden Lizzy, won without a draw"
    elif last["dice"]:
        how = "threw " + ", ".join(_die(card, part).words for part, card in zip(PARTS, last["dice"]))
    else:
        how = f"drew the {describe(last['card'])} from the side stack"
    return text + how + (" — won." if last["won"] else " — lost.")


def _die(card: str, part: str) -> Die:
    """One Dizzy Die face (ruling LZ-3), read from the throw's card name."""
    face = parse(card)
    return Die(part, face.colour, face.pattern, FILLS[face.colour], f"{part} die: {face.colour} {face.pattern}")


def _seat_places(table: Table) -> list[tuple[int, tuple[int, int]]]:
    """Each seat with its (row, column) around the table, the viewer at the bottom, then clockwise."""
    players = table.view["players"]
    order = list(range(players))
    if table.viewer is not None:
        order = order[table.viewer :] + order[: table.viewer]
    return [(seat, RING[place]) for place, seat in zip(LAYOUT[players], order)]


def _seat(table: Table, controls: Controls, seat: int, place: tuple[int, int]) -> Seat:
    view = table.view
    mine = view["seats"][seat]
    pending = view["pending"] or {}
    event = pending.get("event")
    result = view["result"]
    who = "Your" if seat == table.viewer else f"{table.name(seat)}'s"
    shows_team = view["phase"] in ("showdown", "over") and mine["team"]
    ghost = mine["ghost"]
    return Seat(
        seat=seat,
        name=table.name(seat),
        you=seat == table.viewer,
        row=place[0],
        column=place[1],
        ghost=ghost,
        cards=plural(mine["cards"], "card"),
        team=("Lizzies" if mine["team"] == "lizzies" else "Ghosties") if shows_team else "",
        to_act=seat in view["to_act"],
        passed=pending.get("kind") == "pass" and pending["opponent"] == seat,
        target=bool(event and event["won"] and event["targets"] and event["targets"][0] == seat),
        won=bool(result) and seat in result["winners"],
        stacks=[] if ghost else _stacks(table, controls, seat, mine["stacks"], who),
        lizzy_words="" if ghost else _lizzy_words(mine["lizzy"]),
        pile=table.art.back(f"{who} face-down pile: {plural(mine['pile_size'], 'card')}") if ghost else None,
        pile_count=plural(mine["pile_size"], "card"),
        pile_depth=min(mine["pile_size"], 4),
    )


def _lizzy_words(lizzy: dict[str, Any] | None) -> str:
    """What a Lizzy's top cards make (ruling LZ-2), in words, from the engine's classification."""
    if not lizzy:
        return ""
    if not lizzy["complete"]:
        return "incomplete: a stack is empty"
    if not lizzy["valid"]:
        return "not a valid Lizzy"
    same = {"same": "the same", "different": "different"}
    bits = [f"{what} all {same[lizzy[what]]}" for what in ("colours", "patterns") if lizzy[what]]
    kind = "golden double" if lizzy["golden"] else ("double" if lizzy["double"] else "valid")
    return f"{kind}: {' and '.join(bits)}"


# --- the end -----------------------------------------------------------------------------------------


def _outcome(table: Table) -> Outcome | None:
    result = table.view["result"]
    if not result:
        return None
    winners = result["winners"]
    names = _and([table.name(seat) for seat in winners])
    if result["draw"]:
        headline = "A draw"
    else:
        headline = f"Team {'Lizzies' if sorted(winners) == sorted(result['lizzies']) else 'Ghosties'} wins: {names}"
    rows = [
        ScoreRow(
            name=table.name(seat),
            team="Lizzies" if seat in result["lizzies"] else "Ghosties",
            cards=cards,
            won=seat in winners,
        )
        for seat, cards in enumerate(result["cards"])
    ]
    return Outcome(headline=headline, reason=table.fill(result["reason"]), rows=rows)


def _revealed(table: Table) -> list[Reveal]:
    """ALL-3: after the end every card is public, below the tops and in the piles too."""
    shown = table.view["revealed"]
    groups = []
    for seat, stacks in enumerate(shown["lizzies"]):
        strips = [_strip(table, f"{part} stack", stacks[part]) for part in PARTS] if stacks else []
        if shown["piles"][seat]:
            strips.append(_strip(table, "pile", shown["piles"][seat]))
        groups.append(Reveal(table.name(seat), strips))
    groups.append(Reveal("Burn Lizzy", [_strip(table, f"{part} stack", shown["burn"][part]) for part in PARTS]))
    groups.append(Reveal("Side stack (top card first)", [_strip(table, "", shown["side_stack"])]))
    return groups


def _strip(table: Table, title: str, cards: list[str]) -> Strip:
    return Strip(f"{title} ({len(cards)})" if title else "", table.art.cards(cards))


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
