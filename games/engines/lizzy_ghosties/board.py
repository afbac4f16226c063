"""The Lizzy Ghosties board as typed sections (status, decision, the middle of the table, the seats around
it, the end) for its Jinja2 template.

Everything comes from the viewer's engine view and legal moves (rulings LG-2, ALL-3): a stack is its top
card and its size, a ghost pile and the side stack only a size, and what a move sets off (a new event, an
extra team turn) is the engine's `move_effects`. Buttons are offered only for the viewer's legal moves,
on the stack whose top card they move. A ghost double is picked on the table one card at a time:
?select=d<head source><body source>, a source being a seat digit or "b" for the Burn Lizzy.

Every word is a `Msg` (games/engines/words.py): English text that the template shows in the
viewer's language with `tr()`. The engine's own words (the pending decision, the result's reason) keep
seats as {p0}..{p7}; `Table.fill` puts the players' names in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.engines.dizzy_cards import PARTS, parse
from games.engines.dizzy_phrases import COLOUR_WORDS, PATTERN_WORDS, card_name, card_words, the_card
from games.engines.lizzy_card import FILLS, CardArt, LizzyCard
from games.engines.lizzy_ghosties.phrases import (
    BURN_LIZZYS,
    EVENT_WORDS,
    PART_WORDS,
    YOUR,
    face_words,
    listed,
    owned_card,
    owner,
    three,
)
from games.engines.lizzy_ghosties.rules import BURN
from games.engines.spec import BoardInput, MoveChoice, move_json
from games.engines.words import Msg, _, gettext_noop, ngettext

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
    "opening": (_("Opening"), _("every player is still a Lizzy")),
    "transition": (_("Transition"), _("ghosts haunt the living Lizzies")),
    "showdown": (_("Showdown"), _("team Lizzies against team Ghosties")),
    "over": (_("Game over"), _("the cards are counted")),
}
# What a move sets off, after its words (the leading space joins them).
EFFECT_WORDS = {
    "event": _(" (a double: a new event)"),
    "extra_turn": _(" (a new double: an extra team turn)"),
    "turn_ends": _(" (your turn ends)"),
}
GHOST_DETAIL = gettext_noop(
    "A ghost steals one top card into its face-down pile, or takes one top card from each of three "
    "Lizzies forming a double (a loaned Lizzy) and starts a ghost event."
)
DETAILS = {
    "ghost_turn": GHOST_DETAIL,
    "showdown_ghosts": GHOST_DETAIL,
    "showdown_lizzies": gettext_noop(
        "Team Lizzies move one top card between their two Lizzies, or take a Burn Lizzy top card."
    ),
}
PASS_DETAIL = gettext_noop(
    "A Lizzy's turn passes every other living Lizzy clockwise; for each one {player} may steal a top card, "
    "give one, or skip."
)
YOUR_PASS_DETAIL = gettext_noop(
    "A Lizzy's turn passes every other living Lizzy clockwise; for each one you may steal a top card, "
    "give one, or skip."
)
WON_DETAIL = gettext_noop(
    "The {event} was won: one attempt on each Lizzy in turn. Attempts left: {left}. "
    "A new double during the event starts a new event (a chain)."
)
LOST_DETAIL = gettext_noop(
    "The {event} was lost: one card of choice from any other living Lizzy. "
    "A new double during the event starts a new event (a chain)."
)
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
    def words(self) -> Msg:
        return Msg("{short}{rest}", short=self.short, rest=self.rest)  # signs only: no catalogue entry


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
        self.viewer = given.seat  # whose side the table is laid out from
        self.you = given.you  # whom the words call "you" (a replay's reader may sit elsewhere, or nowhere)
        self.names = given.names
        self.select = given.select
        self.art = CardArt("lg")
        self.legal = given.legal if given.my_turn and not given.is_over else []
        self.over = given.is_over
        self.effects = {move_json(e["move"]): e["effect"] for e in self.view.get("move_effects", [])}

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else _("seat {number}", number=seat + 1)

    def whose(self, source: int | str) -> Msg:
        """Whose a card is, before its words: "the Burn Lizzy's", "your", "Ann's"."""
        if source == BURN:
            return BURN_LIZZYS
        return YOUR if source == self.you else owner(self.name(source))

    def owned(self, source: int | str, part: str) -> Msg:
        """The top card of a stack with whose it is: "Ann's red dots head"."""
        return owned_card(self.top(source, part), self.whose(source))

    def onto(self, seat: int) -> Msg:
        return _("your Lizzy") if seat == self.you else _("{player}'s Lizzy", player=self.name(seat))

    def top(self, source: int | str, part: str) -> str:
        stacks = self.view["burn"]["stacks"] if source == BURN else self.view["seats"][source]["stacks"]
        return stacks[part]["top"]

    def effect_words(self, move: str) -> Msg | str:
        """What the engine says a legal move sets off, in words ("" for nothing)."""
        return EFFECT_WORDS.get(self.effects.get(move, ""), "")

    def fill(self, text: Any) -> Any:
        """Engine words name seats as {p0}..{p7}: the players' names go in, inside a Msg's values too."""
        if isinstance(text, Msg):
            values = {key: self.fill(value) for key, value in text.values.items()}
            return Msg(text.template, text.plural_template, text.count, **values)
        if isinstance(text, str):
            return PLACEHOLDER.sub(lambda found: self.name(int(found.group(1))), text)
        return text


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


def _cards(count: int) -> Msg:
    return ngettext("{n} card", "{n} cards", count)


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
        rest = _(": {cards}{effect}", cards=_double_words(table, move), effect=effect)
        return None, Control(_("Grab the double"), rest, json=value)
    part = move["part"]
    if kind == "give":
        card = table.owned(table.viewer, part)
        rest = _(" {player} {card}{effect}", player=table.name(move["to"]), card=card, effect=effect)
        return (table.viewer, part), Control(_("Give"), rest, json=value)
    source = BURN if kind == "take_burn" else move["from"]
    card = table.owned(source, part)
    if kind in ("move", "take_burn"):
        to = move["to"]
        if kind == "move":
            short = _("Move to {player}", player=table.name(to))
        else:
            short = _("Take for you") if to == table.you else _("Take for {player}", player=table.name(to))
        rest = _(": {card} onto {lizzy}{effect}", card=card, lizzy=table.onto(to), effect=effect)
    elif kind == "ghost_steal":
        short, rest = _("Steal"), _(" {card} into your pile{effect}", card=card, effect=effect)
    elif kind == "burn":
        short, rest = _("Burn"), _(" {card} onto the Burn Lizzy{effect}", card=card, effect=effect)
    else:
        event = table.view["pending"]["event"]
        short = _("Steal")
        if event is not None and event["kind"] == "ghost":
            rest = _(" {card} onto your loaned Lizzy{effect}", card=card, effect=effect)
        else:
            rest = _(" {card} onto your Lizzy{effect}", card=card, effect=effect)
    return (source, part), Control(short, rest, json=value)


def _skip_words(table: Table) -> Msg:
    pending = table.view["pending"]
    event = pending["event"]
    if event is None:
        return _("Skip {player}: neither steal nor give", player=table.name(pending["opponent"]))
    if event["won"]:
        return _("Skip {player}: take none of their cards", player=table.name(event["targets"][0]))
    return _("Take no card: end the event")


def _double_words(table: Table, move: dict[str, Any]) -> Msg:
    return three([table.owned(move[part], part) for part in PARTS])


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
        if part == "tail":
            value = move_json(move)
            rest = _(": {cards}{effect}", cards=_double_words(table, move), effect=table.effect_words(value))
            control = Control(_("Grab the double"), rest, json=value)
        elif place in at:
            continue
        else:
            rest = _(" of a double: {card}", card=table.owned(move[part], part))
            control = Control(
                _("Pick as the {part}", part=PART_WORDS[part]), rest, select="d" + codes + _code(move[part])
            )
        at.setdefault(place, []).append(control)
    return at


def _draw_order(table: Table) -> list[Place]:
    """The stacks in the order the page draws them: the Burn Lizzy, then the seats from the viewer on."""
    return [(BURN, part) for part in PARTS] + [(seat, part) for seat, _place in _seat_places(table) for part in PARTS]


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
        cycle=_("cycle {cycle} of at most {most}", cycle=view["cycle"], most=view["max_cycles"]) if in_cycles else "",
        dicey=view["dicey"],
        first_player=table.name(view["first_player"]),
        teams=_team_words(table),
        showdown=_showdown_words(table),
    )


def _team_words(table: Table) -> Msg | str:
    teams = table.view["teams"]
    if not teams:
        return ""
    lizzies = listed([table.name(seat) for seat in sorted(teams["lizzies"])]) or _("nobody")
    ghosts = listed([table.name(seat) for seat in sorted(teams["ghosts"])]) or _("nobody")
    if table.view["phase"] == "transition":
        return _("Still Lizzies: {lizzies}. Ghosts: {ghosts}.", lizzies=lizzies, ghosts=ghosts)
    return _("Team Lizzies: {lizzies}. Team Ghosties: {ghosts}.", lizzies=lizzies, ghosts=ghosts)


def _showdown_words(table: Table) -> Msg | str:
    showdown = table.view["showdown"]
    if not showdown or table.view["phase"] == "over":
        return ""
    team = "Lizzies" if showdown["team"] == "lizzies" else "Ghosties"  # the teams' names, in every language
    turn, most = showdown["team_turns"] + 1, showdown["max_team_turns"]
    if showdown["extra_turn"]:
        return _(
            "Team turn {turn} of at most {most}: team {team} plays an extra turn (a new double).",
            turn=turn,
            most=most,
            team=team,
        )
    return _("Team turn {turn} of at most {most}: team {team} plays.", turn=turn, most=most, team=team)


def _decision(table: Table, controls: Controls) -> Decision | None:
    pending = table.view["pending"]
    if pending is None:
        return None
    event = pending["event"]
    mine = pending["seat"] == table.viewer and bool(table.legal)
    hint: Msg | str = ""
    if mine:
        if controls.skip:
            hint = _("Use the buttons under the cards on the table, or skip.")
        else:
            hint = _("Use the buttons under the cards on the table.")
        if any(move["type"] == "ghost_double" for move in table.legal):
            hint = Msg("{hint} {more}", hint=hint, more=_double_hint(table, controls.picked))  # signs only
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


def _double_hint(table: Table, picked: list[Place]) -> Msg:
    if not picked:
        return _("To grab a double, pick a head marked on the table, then a body, then a tail.")
    chosen = listed([table.owned(source, part) for source, part in picked])
    if PARTS[len(picked)] == "body":
        return _("Double so far: {cards}. Now pick a body marked on the table.", cards=chosen)
    return _("Double so far: {cards}. Now pick a tail marked on the table.", cards=chosen)


def _detail(table: Table, pending: dict[str, Any]) -> Msg | str:
    event = pending["event"]
    if pending["kind"] == "pass":
        if pending["seat"] == table.you:
            return _(YOUR_PASS_DETAIL)
        return _(PASS_DETAIL, player=table.name(pending["seat"]))
    if event is None:
        return _(DETAILS[pending["kind"]]) if pending["kind"] in DETAILS else ""
    what = EVENT_WORDS[event["kind"]]
    if event["won"]:
        return _(WON_DETAIL, event=what, left=listed([table.name(seat) for seat in event["targets"]]))
    return _(LOST_DETAIL, event=what)


def _middle(table: Table, controls: Controls) -> Middle:
    view = table.view
    burn = Lizzy(
        title=_("Burn Lizzy"),
        count=_cards(view["burn_size"]),
        stacks=_stacks(table, controls, BURN, view["burn"]["stacks"], _("The Burn Lizzy's")),
        words=_lizzy_words(view["burn"]["lizzy"]),
    )
    loaned = None
    if view["loaned"]:
        seat = view["loaned"]["seat"]
        if seat == table.you:
            title, whose = _("Your loaned Lizzy"), _("Your loaned Lizzy's")
        else:
            title = _("{player}'s loaned Lizzy", player=table.name(seat))
            whose = _("{player}'s loaned Lizzy's", player=table.name(seat))
        loaned = Lizzy(
            title=title,
            count="",
            stacks=_stacks(table, controls, "loaned", view["loaned"]["stacks"], whose),
            words=_lizzy_words(view["loaned"]["lizzy"]),
        )
    side = view["side_stack_size"]
    return Middle(
        burn=burn,
        loaned=loaned,
        side_count=_cards(side),
        side_back=table.art.back(_("the side stack, face down: {cards}", cards=_cards(side))),
        side_depth=min(side, 4),
        draw_title=_("Last dice throw") if view["dicey"] else _("Last draw"),
        draw=_draw(table, view["last_draw"]),
    )


def _stacks(table: Table, controls: Controls, source: Any, stacks: dict[str, Any], whose: Msg) -> list[Stack]:
    found = []
    for part in PARTS:
        size, top = stacks[part]["size"], stacks[part]["top"]
        words = _("{owner} {part} stack: {cards}", owner=whose, part=PART_WORDS[part], cards=_cards(size))
        if top:
            template = gettext_noop("{owner} {part} stack: {cards}, top card {card}")
            words = _(template, owner=whose, part=PART_WORDS[part], cards=_cards(size), card=card_name(top))
        found.append(
            Stack(
                id=f"{source}-{part}",
                part=PART_WORDS[part],
                size=size,
                card=_card(table, top) if top else None,
                depth=min(size, 4),
                words=words,
                controls=controls.at.get((source, part), []),
                picked=(source, part) in controls.picked,
            )
        )
    return found


def _card(table: Table, name: str) -> LizzyCard:
    """A face-up card with its words as Msgs, for the template to show in the viewer's language."""
    return replace(table.art.card(name), label=card_name(name), words=card_words(name))


def _draw(table: Table, last: dict[str, Any] | None) -> Draw | None:
    if not last:
        return None
    return Draw(
        text=_draw_text(table, last),
        won=last["won"],
        card=_card(table, last["card"]) if last["card"] else None,
        dice=[_die(card, part) for part, card in zip(PARTS, last["dice"] or [])],
        golden=last["golden"],
    )


def _draw_text(table: Table, last: dict[str, Any]) -> Msg:
    seat = last["seat"]
    mine = seat == table.you
    where = {
        "own": _("your own Lizzy") if mine else _("{player}'s own Lizzy", player=table.name(seat)),
        "burn": _("the Burn Lizzy"),
        "loaned": _("a loaned Lizzy"),
    }[last["on"]]
    if last["golden"]:
        how = _("a golden Lizzy, won without a draw")
    elif last["dice"]:
        how = _("threw {dice}", dice=three([face_words(card) for card in last["dice"]]))
    else:
        how = _("drew {card} from the side stack", card=the_card(last["card"]))
    words = {"where": where, "event": EVENT_WORDS[last["event"]], "how": how}
    verdict = _("won") if last["won"] else _("lost")
    if mine:
        return _("A double on {where} started a {event} for you: {how} — {verdict}.", verdict=verdict, **words)
    template = gettext_noop("A double on {where} started a {event} for {player}: {how} — {verdict}.")
    return _(template, player=table.name(seat), verdict=verdict, **words)


def _die(card: str, part: str) -> Die:
    """One Dizzy Die face (ruling LZ-3), read from the throw's card name."""
    face = parse(card)
    words = _(
        "{part} die: {colour} {pattern}",
        part=PART_WORDS[part],
        colour=COLOUR_WORDS[face.colour],
        pattern=PATTERN_WORDS[face.pattern],
    )
    return Die(part, face.colour, face.pattern, FILLS[face.colour], words)


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
    whose = _("Your") if seat == table.you else owner(table.name(seat))
    shows_team = view["phase"] in ("showdown", "over") and mine["team"]
    ghost = mine["ghost"]
    pile = _("{owner} face-down pile: {cards}", owner=whose, cards=_cards(mine["pile_size"]))
    return Seat(
        seat=seat,
        name=table.name(seat),
        you=seat == table.you,
        row=place[0],
        column=place[1],
        ghost=ghost,
        cards=_cards(mine["cards"]),
        team=("Lizzies" if mine["team"] == "lizzies" else "Ghosties") if shows_team else "",
        to_act=seat in view["to_act"] and not table.over,  # an aborted match has nobody to move
        passed=pending.get("kind") == "pass" and pending["opponent"] == seat,
        target=bool(event and event["won"] and event["targets"] and event["targets"][0] == seat),
        won=bool(result) and seat in result["winners"],
        stacks=[] if ghost else _stacks(table, controls, seat, mine["stacks"], whose),
        lizzy_words="" if ghost else _lizzy_words(mine["lizzy"]),
        pile=table.art.back(pile) if ghost else None,
        pile_count=_cards(mine["pile_size"]),
        pile_depth=min(mine["pile_size"], 4),
    )


def _lizzy_words(lizzy: dict[str, Any] | None) -> Msg | str:
    """What a Lizzy's top cards make (ruling LZ-2), in words, from the engine's classification."""
    if not lizzy:
        return ""
    if not lizzy["complete"]:
        return _("incomplete: a stack is empty")
    if not lizzy["valid"]:
        return _("not a valid Lizzy")
    bits = []
    if lizzy["colours"]:
        bits.append(_("colours all the same") if lizzy["colours"] == "same" else _("colours all different"))
    if lizzy["patterns"]:
        bits.append(_("patterns all the same") if lizzy["patterns"] == "same" else _("patterns all different"))
    kind = _("golden double") if lizzy["golden"] else (_("double") if lizzy["double"] else _("valid"))
    return _("{kind}: {conditions}", kind=kind, conditions=listed(bits))


# --- the end -----------------------------------------------------------------------------------------


def _outcome(table: Table) -> Outcome | None:
    result = table.view["result"]
    if not result:
        return None
    winners = result["winners"]
    names = listed([table.name(seat) for seat in winners])
    if result["draw"]:
        headline = _("A draw")
    elif sorted(winners) == sorted(result["lizzies"]):
        headline = _("Team Lizzies wins: {names}", names=names)
    else:
        headline = _("Team Ghosties wins: {names}", names=names)
    rows = [
        ScoreRow(
            name=table.name(seat),
            team="Lizzies" if seat in result["lizzies"] else "Ghosties",
            cards=cards,
            won=seat in winners,
        )
        for seat, cards in enumerate(result["cards"])
    ]
    words = result.get("reason_words")  # none in games that ended before English then
    reason = _from_words(words) if words else result["reason"]
    return Outcome(headline=headline, reason=table.fill(reason), rows=rows)


def _from_words(words: dict[str, Any]) -> Msg:
    """A Msg again from its stored words ({"msg", "args"}, games.engines.words.stored)."""
    values = {key: _from_words(value) if isinstance(value, dict) else value for key, value in words["args"].items()}
    return Msg(words["msg"], **values)


def _revealed(table: Table) -> list[Reveal]:
    """ALL-3: after the end every card is public, below the tops and in the piles too."""
    shown = table.view["revealed"]
    groups = []
    for seat, stacks in enumerate(shown["lizzies"]):
        strips = [_strip(table, _stack_title(part, stacks[part]), stacks[part]) for part in PARTS] if stacks else []
        if shown["piles"][seat]:
            strips.append(_strip(table, _("pile ({n})", n=len(shown["piles"][seat])), shown["piles"][seat]))
        groups.append(Reveal(table.name(seat), strips))
    burn = [_strip(table, _stack_title(part, shown["burn"][part]), shown["burn"][part]) for part in PARTS]
    groups.append(Reveal(_("Burn Lizzy"), burn))
    groups.append(Reveal(_("Side stack (top card first)"), [_strip(table, "", shown["side_stack"])]))
    return groups


def _stack_title(part: str, cards: list[str]) -> Msg:
    return _("{part} stack ({n})", part=PART_WORDS[part], n=len(cards))


def _strip(table: Table, title: Msg | str, cards: list[str]) -> Strip:
    return Strip(title, [_card(table, card) for card in cards])
