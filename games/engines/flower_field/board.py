"""The Doubting Flower Field board as typed sections (field, controls, players, hidden flowers,
challenges, hint) for its Jinja2 template.

Everything comes from the viewer's engine view and legal moves (rulings ALL-3, FF-2: a player's own
hidden flowers only, everyone's after the end): which cells may take a flower (`plantable`,
`hideable`), the lives (`lives`, `lives_at_start`), whether the viewer may challenge
(`may_challenge`). A hide or plant button is offered only when its move is legal. The legal list's
challenges are never read: the site never tells whether equal fields exist (FF-9). A challenge is any
two fields the player selects; the engine judges it and refuses a malformed pair with a message.

The selection (BoardInput.select, at most 64 characters) is built up by plain links:
    p:C4   p:C4r   p:C4rE5   planting: a cell, its colour (r, b, y), a second cell waiting for its colour
    h:C4   h:C4r   h:C4rE5   hiding, the same steps
    ca:C4C5C6D6:E1F1         challenging: field A, then field B; "ca"/"cb" says which field a click edits
A trailing "@<moves>" (only on the challenge button's post address) keeps the selection after a
refused challenge and drops it once the game has moved on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from games.engines.flower_field.phrases import (
    COLOUR_NAMES,
    COLOUR_WORDS,
    FLOWER_WORDS,
    LETTERS,
    flower_words,
    flowers_words,
    joined,
)
from games.engines.flower_field.rules import CELL_INDEX, COLOURS, SIZE
from games.engines.spec import BoardInput, MoveChoice, legal_json, move_json
from games.engines.words import _, ngettext

LETTER = {"red": "r", "blue": "b", "yellow": "y"}
COLOUR_OF_LETTER = {letter: colour for colour, letter in LETTER.items()}
CELL = r"[A-G][1-7]"
FLOWERS_SELECT = re.compile(rf"^([ph]):({CELL})(?:([rby])({CELL})?)?$")
CHALLENGE_SELECT = re.compile(rf"^c([ab])(?::((?:{CELL}){{0,4}}))?(?::((?:{CELL}){{0,4}}))?$")
STAMPED = re.compile(r"^(.*)@(\d+)$")
MODE_OF_PHASE = {"play": "p", "hide": "h"}
BUTTON_MOVES = ("order", "give_up", "challenge_challenge", "accept", "pass")
PHASE_WORDS = {
    "order": _("Choosing who plants first"),
    "hide": _("Hiding flowers"),
    "play": _("Planting"),
    "doubt": _("Challenge-challenge?"),
    "final": _("The field is full"),
    "over": _("Game over"),
}
STATUS_WORDS = {"live": _("hidden"), "cancelled": _("cancelled"), "exploded": _("exploded")}
DOUBT_WORDS = {
    "successful": _("challenged back: successful (the challenge was a bluff)"),
    "failed": _("challenged back: failed (the challenge stood)"),
    "accepted": _("accepted"),
}
ANNOUNCED_WORDS = {"successful": _("Successful"), "failed": _("Failed")}
# The engine's reasons (Result.reason), as the board's result panel starts its sentence with them.
REASON_WORDS = {
    "lost on time": _("Lost on time"),
    "out of lives": _("Out of lives"),
    "full field: more lives": _("Full field: more lives"),
    "full field: equal lives, the last planter wins": _("Full field: equal lives, the last planter wins"),
}
# The legend of the pictures: each colour's flower.
LEGEND = [
    ("red", _("red: five round petals, R")),
    ("blue", _("blue: four pointed petals, B")),
    ("yellow", _("yellow: eight thin petals, Y")),
]
MINI_CELL = 10  # a challenge's small picture: cell size in its own units


# --- the selection ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Selection:
    """What the viewer has clicked so far; empty when nothing (or nothing valid) is selected."""

    mode: str = ""  # "p" planting, "h" hiding, "c" challenging, "" nothing
    first: str = ""  # p/h: the first cell
    colour: str = ""  # p/h: the first cell's colour, once chosen
    second: str = ""  # p/h: the second cell, waiting for its colour
    active: str = "a"  # c: the field a click edits
    a: tuple[str, ...] = ()
    b: tuple[str, ...] = ()

    def code(self) -> str:
        if self.mode == "c":
            return f"c{self.active}:{''.join(self.a)}:{''.join(self.b)}"
        if not self.mode or not self.first:
            return ""
        return f"{self.mode}:{self.first}{LETTER.get(self.colour, '')}{self.second}"


def parse_selection(text: str, moves: int) -> Selection:
    """Read a selection; anything malformed, or stamped before the game's last move, reads as none."""
    stamped = STAMPED.match(text)
    if stamped:
        if int(stamped.group(2)) != moves:
            return Selection()
        text = stamped.group(1)
    found = FLOWERS_SELECT.match(text)
    if found:
        mode, first, letter, second = found.groups()
        second = "" if second in (None, first) else second
        return Selection(mode=mode, first=first, colour=COLOUR_OF_LETTER.get(letter or "", ""), second=second)
    found = CHALLENGE_SELECT.match(text)
    if found:
        active, a, b = found.groups()
        return Selection(mode="c", active=active, a=_cells(a), b=_cells(b))
    return Selection()


def _cells(run: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(re.findall(CELL, run or "")))  # a cell named twice counts once


# --- the sections ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hidden:
    """A hidden flower: the viewer's own, or anyone's after the end."""

    cell: str
    colour: str
    status: str  # "live", "cancelled" or "exploded"
    css: str
    words: str


@dataclass(frozen=True)
class Cell:
    name: str
    css: str
    flower: str  # the colour of the flower standing here, "" when empty
    chosen: str  # the colour the viewer is choosing for this empty cell, drawn pale
    hidden: list[Hidden]
    last: bool
    exploded: bool
    in_a: bool
    in_b: bool
    label: str  # what a screen reader hears: "D2: red flower, planted last turn, in field A"
    pick: str | None  # the selection a click leads to ("" for none), None when the cell is not a link
    action: str  # what the click does: "add D2 to field A"
    autofocus: bool


@dataclass(frozen=True)
class Row:
    number: int
    cells: list[Cell]


@dataclass(frozen=True)
class ColourChoice:
    """One colour to pick: a button that submits `move`, or a link to the selection `select`."""

    colour: str
    name: str  # the colour as the button shows it: "Red"
    move: str
    select: str
    spoken: str  # said after the visible colour: " on D5"


@dataclass(frozen=True)
class FlowerStep:
    """Hiding or planting, a step at a time: a cell, its colour, maybe a second cell and its colour."""

    mode: str  # "p" or "h"
    first: str
    colour: str
    second: str
    chosen: str  # what is chosen so far, once a colour is: "Red on B2 chosen."
    plant_one: list[ColourChoice]  # buttons: one flower on `first`
    pick_colour: list[ColourChoice]  # links: the colour of `first`, then a second cell
    finish: list[ColourChoice]  # buttons: both flowers, the second in this colour
    alone: MoveChoice | None  # plant the first flower alone


@dataclass(frozen=True)
class ChallengeStep:
    final: bool
    editing: str  # "A" or "B"
    other: str
    a: list[str]
    b: list[str]
    empty_named: list[str]
    switch: str  # the selection that edits the other field
    clear: str
    submit: MoveChoice | None  # once both fields have four cells
    stamp: str  # the selection stamped with the game's move count, for the submit's post address


@dataclass(frozen=True)
class Controls:
    mode: str  # "p" planting, "h" hiding, "c" challenging, "" none
    flowers: FlowerStep | None
    challenge: ChallengeStep | None
    start_challenge: str  # the selection that starts challenging, "" when not offered
    back_to_planting: bool
    start_again: bool
    give_up: MoveChoice | None
    pass_move: MoveChoice | None
    doubt: list[MoveChoice]  # challenge the challenge, or accept it
    order: list[MoveChoice]


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    you: bool
    hearts: list[bool]  # full, then lost
    lives_words: str  # "4 of 5 lives"
    advantage: bool
    first: bool
    to_act: bool
    hiding_words: str  # while hiding: "has hidden two flowers"
    won: bool
    give_up_words: str  # "gave up 1 challenge"


@dataclass(frozen=True)
class MiniCell:
    x: int
    y: int
    fill: str  # "red", "blue", "yellow" or "empty"
    letter: str  # the colour's letter, "?" for an empty cell
    in_a: bool
    in_b: bool


@dataclass(frozen=True)
class Verdict:
    """A challenge made: what was named and announced; its truth only after the end."""

    number: int
    who: str
    a: str
    b: str
    empty: str
    announced: str  # "successful" or "failed"
    announced_words: str
    doubt: str
    final: bool
    truth: str  # "It was true: ...", after the end only
    width: int
    height: int
    cells: list[MiniCell]  # its small picture, cropped to the named cells


@dataclass(frozen=True)
class Pending:
    """A challenge that named empty cells, waiting for a challenge-challenge or an acceptance (FF-7)."""

    challenger: str
    a: str
    b: str
    empty: str
    undone: str
    words: str  # all of the above in sentences


@dataclass(frozen=True)
class Outcome:
    title: str
    reason: str
    lives: str


@dataclass(frozen=True)
class HiddenSet:
    seat: int
    name: str
    flowers: list[Hidden]


@dataclass(frozen=True)
class Board:
    phase: str
    phase_words: str
    over: bool
    hint: str
    status: str
    flower_count: int
    selecting: bool
    rows: list[Row]
    show_controls: bool
    controls: Controls
    players: list[Player]
    own_hidden: list[Hidden]
    cancelled: list[str]
    hidden_at_end: list[HiddenSet]
    verdicts: list[Verdict]  # newest first
    undone: str  # the undone plantings, "" when none
    explosions: list[str]
    pending: Pending | None
    outcome: Outcome | None
    letters: dict[str, str]  # each colour's letter, drawn on its flowers
    legend: list[tuple[str, str]]  # (colour, what its flower looks like)


# --- the board -------------------------------------------------------------------------------------
def present(given: BoardInput) -> Board:
    view = given.view
    phase = view["phase"]
    sel = _selection(given)
    public = "all_hidden" in view  # however the match ended, everything is public (ALL-3)
    return Board(
        phase=phase,
        phase_words=PHASE_WORDS[phase],
        over=phase == "over" or given.is_over,
        hint=_hint(given, sel),
        status=_status(given),
        flower_count=len(view["board"]),
        selecting=sel.mode == "c",
        rows=_rows(given, sel),
        show_controls=_acting(given) and bool(sel.mode),
        controls=_controls(given, sel),
        players=[_player(given, seat) for seat in (0, 1)],
        own_hidden=[_hidden(h, "") for h in view["hidden"]] if not public else [],
        cancelled=[h["cell"] for h in view["hidden"] if h["status"] == "cancelled"] if not public else [],
        hidden_at_end=[
            HiddenSet(seat, given.names[seat], [_hidden(h, f"ff-hid-seat-{seat}") for h in flowers])
            for seat, flowers in enumerate(view.get("all_hidden", []))
        ],
        verdicts=[_verdict(given, number, ch) for number, ch in enumerate(view["challenges"], start=1)][::-1],
        undone=joined(
            [
                _("{player}: {flowers}", player=_name(given, p["seat"]), flowers=flowers_words(p["flowers"]))
                for p in view["plantings"]
                if not p["standing"]
            ],
            "; ",
        ),
        explosions=list(view["explosions"]),
        pending=_pending(given),
        outcome=_outcome(given),
        letters=LETTERS,
        legend=LEGEND,
    )


def _acting(given: BoardInput) -> bool:
    return given.my_turn and not given.is_over and given.view["phase"] != "over"


def _open_cells(given: BoardInput) -> set[str]:
    """The cells a click may give a flower now: the engine's plantable or hideable cells."""
    if not _acting(given):
        return set()
    return set(given.view["plantable"] or given.view["hideable"])


def _selection(given: BoardInput) -> Selection:
    """The viewer's selection if it still fits the board, else the phase's starting point."""
    view = given.view
    acting = _acting(given)
    sel = parse_selection(given.select, view["moves"])
    if sel.mode == "c" and not (acting and view["may_challenge"]):
        sel = Selection()
    if sel.mode in ("p", "h"):
        cells = _open_cells(given)
        if sel.mode != MODE_OF_PHASE.get(view["phase"]) or sel.first not in cells:
            sel = Selection()
        elif sel.second and (not sel.colour or sel.second not in cells):
            sel = replace(sel, second="")
    if sel.mode or not acting:
        return sel
    if view["phase"] == "final" and view["may_challenge"]:
        return Selection(mode="c")  # nothing to plant on a full field: challenging is the choice
    if view["phase"] in MODE_OF_PHASE and _open_cells(given):
        return Selection(mode=MODE_OF_PHASE[view["phase"]])
    return sel


def _name(given: BoardInput, seat: int | None) -> str:
    """A player as a sentence names them within: "you", or their name."""
    if seat is None:
        return ""
    return _("you") if seat == given.you else given.names[seat]


def _subject(given: BoardInput, seat: int | None) -> str:
    """A player as a sentence starts with them: "You", or their name with a capital."""
    if seat is None:
        return ""
    return _("You") if seat == given.you else given.names[seat][:1].upper() + given.names[seat][1:]


def _hidden(h: dict[str, str], css: str) -> Hidden:
    status = h["status"]
    return Hidden(
        cell=h["cell"],
        colour=h["colour"],
        status=status,
        css=f"ff-hid-{status} {css}".strip(),
        words=_(
            "{colour} on {cell} ({status})",
            colour=COLOUR_WORDS[h["colour"]],
            cell=h["cell"],
            status=STATUS_WORDS[status],
        ),
    )


# --- the field -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _FieldContext:
    sel: Selection
    open_cells: set[str]
    shown_a: tuple[str, ...]
    shown_b: tuple[str, ...]
    hidden: dict[str, list[Hidden]]
    hidden_words: dict[str, list[str]]
    focus: str  # the cell whose link gets the focus after this step


def _rows(given: BoardInput, sel: Selection) -> list[Row]:
    context = _field_context(given, sel)
    return [Row(row["row"], [_cell(given, context, cell) for cell in row["cells"]]) for row in given.view["grid"]]


def _field_context(given: BoardInput, sel: Selection) -> _FieldContext:
    view = given.view
    pending = view.get("pending")
    if sel.mode == "c":
        shown_a, shown_b = sel.a, sel.b
    elif pending:
        shown_a, shown_b = tuple(pending["a"]), tuple(pending["b"])  # the challenge now in doubt is public
    else:
        shown_a, shown_b = (), ()
    hidden: dict[str, list[Hidden]] = {}
    words: dict[str, list[str]] = {}
    if "all_hidden" in view:  # everyone's, after the end (ALL-3)
        owned = [(s, h, f"ff-hid-seat-{s}") for s, hs in enumerate(view["all_hidden"]) for h in hs]
    else:  # the viewer's own (FF-2)
        owned = [(given.seat, h, "") for h in view["hidden"]]
    for seat, h, css in owned:
        hidden.setdefault(h["cell"], []).append(_hidden(h, css))
        flower, state = FLOWER_WORDS[h["colour"]], STATUS_WORDS[h["status"]]
        if seat == given.you:
            said = _("your hidden {flower} ({status})", flower=flower, status=state)
        else:
            said = _("{player}'s hidden {flower} ({status})", player=given.names[seat], flower=flower, status=state)
        words.setdefault(h["cell"], []).append(said)
    return _FieldContext(sel, _open_cells(given), shown_a, shown_b, hidden, words, _focus_cell(given, sel))


def _focus_cell(given: BoardInput, sel: Selection) -> str:
    """After a step, the focus stays in the field: on the cell just added to a challenge (or the last
    planting, to start one), or on the first cell chosen when a second cell is next."""
    if sel.mode == "c":
        if len(sel.a) == 4 and len(sel.b) == 4:
            return ""  # the challenge button takes it
        added = (sel.a if sel.active == "a" else sel.b) or sel.a
        if added:
            return added[-1]
        last = given.view.get("last_planting")
        return last["cells"][0] if last and given.select else ""
    return sel.first if sel.colour and not sel.second else ""


def _cell(given: BoardInput, context: _FieldContext, cell: dict[str, Any]) -> Cell:
    name = cell["cell"]
    sel = context.sel
    chosen = sel.colour if name == sel.first and not cell["colour"] else ""
    selected = name in (sel.first, sel.second) and sel.mode in ("p", "h")
    hidden = context.hidden.get(name, [])
    in_a, in_b = name in context.shown_a, name in context.shown_b
    pick = _pick(context, name)
    classes = {
        "ff-filled": bool(cell["colour"]),
        "ff-selected": selected,
        "ff-last": cell["last"],
        "ff-exploded": cell["exploded"],
        "ff-own-hidden": bool(hidden),
        "ff-two-hidden": len(hidden) > 1,
        "ff-in-a": in_a,
        "ff-in-b": in_b,
        "ff-open": sel.mode in ("p", "h") and name in context.open_cells,
    }
    return Cell(
        name=name,
        css=" ".join(["ff-cell", *(css for css, on in classes.items() if on)]),
        flower=cell["colour"] or "",
        chosen=chosen,
        hidden=hidden,
        last=cell["last"],
        exploded=cell["exploded"],
        in_a=in_a,
        in_b=in_b,
        label=_cell_label(context, cell, chosen, in_a, in_b),
        pick=pick,
        action=_action(context, name) if pick is not None else "",
        autofocus=name == context.focus and pick is not None,
    )


def _cell_label(context: _FieldContext, cell: dict[str, Any], chosen: str, in_a: bool, in_b: bool) -> str:
    name = cell["cell"]
    sel = context.sel
    if cell["colour"]:
        what = FLOWER_WORDS[cell["colour"]]
    elif chosen and sel.mode == "h":
        what = _("empty, your {flower} to hide here", flower=FLOWER_WORDS[chosen])
    elif chosen:
        what = _("empty, your {flower} to plant here", flower=FLOWER_WORDS[chosen])
    elif name == sel.first and sel.mode in ("p", "h"):
        what = _("empty, selected: pick a colour")
    else:
        what = _("empty")
    words = [_("{cell}: {what}", cell=name, what=what)]
    if name == sel.second and sel.mode in ("p", "h"):
        words.append(_("selected as your second cell: pick a colour"))
    if cell["last"]:
        words.append(_("planted last turn"))
    if cell["exploded"]:
        words.append(_("a hidden flower exploded here"))
    words += context.hidden_words.get(name, [])
    words += [_("in field A")] * in_a + [_("in field B")] * in_b
    return joined(words)


def _pick(context: _FieldContext, name: str) -> str | None:
    """The selection a click on the cell leads to, or None when the cell is not a link now."""
    sel = context.sel
    if sel.mode == "c":
        return _challenge_pick(sel, name)
    if sel.mode not in ("p", "h") or name not in context.open_cells:
        return None
    if not sel.first or (name != sel.first and not sel.colour):
        return f"{sel.mode}:{name}"  # a first cell, or another first cell
    if name == sel.first:  # a click on the chosen cell steps back
        return f"{sel.mode}:{name}" if sel.colour else ""
    stem = f"{sel.mode}:{sel.first}{LETTER[sel.colour]}"
    return stem if name == sel.second else stem + name


def _challenge_pick(sel: Selection, name: str) -> str | None:
    edited = list(sel.a if sel.active == "a" else sel.b)
    if name in edited:
        edited.remove(name)
    elif len(edited) < 4:
        edited.append(name)
    else:
        return None  # this field is full: take a cell out first, or edit the other field
    a, b = (tuple(edited), sel.b) if sel.active == "a" else (sel.a, tuple(edited))
    # Once field A has its four cells, the next clicks go to field B.
    active = "b" if sel.active == "a" and len(a) == 4 and len(b) < 4 and name in a else sel.active
    return Selection(mode="c", active=active, a=a, b=b).code()


def _action(context: _FieldContext, name: str) -> str:
    sel = context.sel
    if sel.mode == "c":
        field_name = sel.active.upper()
        if name in (sel.a if sel.active == "a" else sel.b):
            return _("remove {cell} from field {field}", cell=name, field=field_name)
        return _("add {cell} to field {field}", cell=name, field=field_name)
    if name == sel.first and sel.colour:
        return _("choose the colour of {cell} again", cell=name)
    if name in (sel.first, sel.second):
        return _("unselect {cell}", cell=name)
    if sel.first and sel.colour:
        return _("choose {cell} for your second flower", cell=name)
    if sel.mode == "h":
        return _("choose {cell} to hide a flower", cell=name)
    return _("choose {cell} to plant a flower", cell=name)


# --- the controls ----------------------------------------------------------------------------------
def _controls(given: BoardInput, sel: Selection) -> Controls:
    view = given.view
    acting = _acting(given)
    # The buttons that are one legal move each; never a challenge (FF-9), nor the thousands of flowers.
    allowed = legal_json([m for m in given.legal if m["type"] in BUTTON_MOVES]) if acting else set()

    def offer(move: dict[str, Any], label: str) -> MoveChoice | None:
        return MoveChoice(move_json(move), label) if move_json(move) in allowed else None

    order = [
        offer({"type": "order", "go": "first"}, _("Plant first")),
        offer({"type": "order", "go": "second"}, _("Plant second")),
    ]
    doubt = [
        offer({"type": "challenge_challenge"}, _("Challenge the challenge")),
        offer({"type": "accept"}, _("Accept and plant again")),
    ]
    give_up = offer({"type": "give_up"}, _("Give up the challenge (lose a life, play again)"))
    return Controls(
        mode=sel.mode if acting else "",
        flowers=_flower_step(given, sel) if sel.mode in ("p", "h") and sel.first else None,
        challenge=_challenge_step(given, sel) if sel.mode == "c" else None,
        start_challenge=Selection(mode="c").code() if acting and view["may_challenge"] and sel.mode != "c" else "",
        back_to_planting=sel.mode == "c" and bool(_open_cells(given)),
        start_again=sel.mode in ("p", "h") and bool(sel.first),
        give_up=give_up if sel.mode == "c" else None,
        pass_move=offer({"type": "pass"}, _("Pass (end the game)")),
        doubt=[c for c in doubt if c],
        order=[c for c in order if c],
    )


def _flower_step(given: BoardInput, sel: Selection) -> FlowerStep:
    kind = "hide" if sel.mode == "h" else "plant"
    offers_buttons = kind == "plant" or bool(sel.second)  # hiding has no button before the second cell
    legal = _legal_flowers(given, kind, {sel.first, sel.second}) if offers_buttons else set()

    def move(*flowers: tuple[str, str]) -> str:
        """The move's JSON if it is legal, else "". Two flowers go in board order, as the engine lists them."""
        ordered = tuple(sorted(flowers, key=lambda f: CELL_INDEX[f[0]]))
        if ordered not in legal:
            return ""
        return move_json({"type": kind, "flowers": [{"cell": c, "colour": k} for c, k in ordered]})

    def buttons(cell: str, spoken: str, *before: tuple[str, str]) -> list[ColourChoice]:
        """A button per colour of a flower on `cell`, after the flowers `before`: legal moves only."""
        choices = [ColourChoice(k, COLOUR_NAMES[k], move(*before, (cell, k)), "", spoken) for k in COLOURS]
        return [c for c in choices if c.move]

    first, colour, second = sel.first, sel.colour, sel.second
    alone = move((first, colour)) if kind == "plant" and colour else ""
    then = _(" on {cell}, then a second cell", cell=first)
    pick_colour = [ColourChoice(k, COLOUR_NAMES[k], "", f"{sel.mode}:{first}{LETTER[k]}", then) for k in COLOURS]
    finish = []
    if second:
        spoken = _(" on {second}, with {colour} on {first}", second=second, colour=COLOUR_WORDS[colour], first=first)
        finish = buttons(second, spoken, (first, colour))
    return FlowerStep(
        mode=sel.mode,
        first=first,
        colour=colour,
        second=second,
        chosen=_chosen_words(sel),
        plant_one=buttons(first, _(" on {cell}", cell=first)) if kind == "plant" and not colour else [],
        pick_colour=pick_colour if not second else [],
        finish=finish,
        alone=MoveChoice(alone, _("Plant only {flower}", flower=flower_words({"cell": first, "colour": colour})))
        if alone
        else None,
    )


def _chosen_words(sel: Selection) -> str:
    if not sel.colour:
        return ""
    if sel.second:
        return _(
            "{colour} on {first}, and on {second}:", colour=COLOUR_NAMES[sel.colour], first=sel.first, second=sel.second
        )
    return _("{colour} on {cell} chosen.", colour=COLOUR_NAMES[sel.colour], cell=sel.first)


def _legal_flowers(given: BoardInput, kind: str, cells: set[str]) -> set[tuple[tuple[str, str], ...]]:
    """The legal hidings or plantings on `cells`, keyed by their flowers (there are 10,152 hidings)."""
    return {
        tuple((f["cell"], f["colour"]) for f in m["flowers"])
        for m in given.legal
        if m["type"] == kind and m["flowers"][0]["cell"] in cells and m["flowers"][-1]["cell"] in cells
    }


def _challenge_step(given: BoardInput, sel: Selection) -> ChallengeStep:
    other = "b" if sel.active == "a" else "a"
    submit = None
    if len(sel.a) == 4 and len(sel.b) == 4:
        # The pair as selected; whether it is well formed is the engine's call (FF-5).
        move = move_json({"type": "challenge", "a": list(sel.a), "b": list(sel.b)})
        submit = MoveChoice(move, _("Challenge: A = {a}; B = {b}", a=", ".join(sel.a), b=", ".join(sel.b)))
    board = given.view["board"]
    return ChallengeStep(
        final=given.view["phase"] == "final",
        editing=sel.active.upper(),
        other=other.upper(),
        a=list(sel.a),
        b=list(sel.b),
        empty_named=sorted({c for c in sel.a + sel.b if c not in board}),
        switch=replace(sel, active=other).code(),
        clear=Selection(mode="c").code(),
        submit=submit,
        stamp=f"{sel.code()}@{given.view['moves']}",
    )


# --- players, challenges, the end --------------------------------------------------------------------
def _player(given: BoardInput, seat: int) -> Player:
    view = given.view
    lives, start = view["lives"][seat], view["lives_at_start"]
    result = view.get("result") or {}
    give_ups = view["give_ups"].count(seat)
    hiding = ""
    if view["phase"] == "hide":
        hiding = _("has hidden two flowers") if view["hidden_chosen"][seat] else _("is hiding two flowers")
    return Player(
        seat=seat,
        name=given.names[seat],
        you=seat == given.you,
        hearts=[True] * lives + [False] * max(0, start - lives),
        lives_words=_("{lives} of {start} lives", lives=lives, start=start)
        if lives <= start
        else ngettext("{n} life", "{n} lives", lives),
        advantage=seat == view["advantage"],
        first=seat == view["first"],
        to_act=seat in view["to_act"] and not given.is_over,  # an aborted match has nobody to move
        hiding_words=hiding,
        won=seat in result.get("winners", []),
        give_up_words=ngettext("gave up {n} challenge", "gave up {n} challenges", give_ups) if give_ups else "",
    )


def _verdict(given: BoardInput, number: int, ch: dict[str, Any]) -> Verdict:
    truth = ""
    if "truth" in ch:  # only after the end
        truth = (
            _("It was true: the two fields were equal.")
            if ch["truth"]
            else _("It was false: the two fields were not equal.")
        )
    cells, width, height = _mini_picture(ch["a"], ch["b"], ch.get("seen", {}))
    return Verdict(
        number=number,
        who=_subject(given, ch["seat"]),
        a=", ".join(ch["a"]),
        b=", ".join(ch["b"]),
        empty=", ".join(ch["empty"]),
        announced=ch["announced"],
        announced_words=ANNOUNCED_WORDS[ch["announced"]],
        doubt=DOUBT_WORDS.get(ch.get("doubt") or "", ""),
        final=bool(ch.get("final")),
        truth=truth,
        width=width,
        height=height,
        cells=cells,
    )


def _mini_picture(a: list[str], b: list[str], seen: dict[str, str | None]) -> tuple[list[MiniCell], int, int]:
    """A challenge's two fields, cropped to the cells they cover, row 7 on top; each cell in the colour
    it had when the challenge was made, with its letter ("?" for an empty one)."""
    named = list(dict.fromkeys(a + b))
    columns = [CELL_INDEX[c] % SIZE for c in named]
    rows = [CELL_INDEX[c] // SIZE for c in named]
    left, top = min(columns), max(rows)
    cells = []
    for cell in named:
        colour = seen.get(cell) or ""
        cells.append(
            MiniCell(
                x=(CELL_INDEX[cell] % SIZE - left) * MINI_CELL,
                y=(top - CELL_INDEX[cell] // SIZE) * MINI_CELL,
                fill=colour if colour in LETTER else "empty",
                letter=LETTERS[colour] if colour in LETTERS else "?",
                in_a=cell in a,
                in_b=cell in b,
            )
        )
    return cells, (max(columns) - left + 1) * MINI_CELL, (top - min(rows) + 1) * MINI_CELL


def _pending(given: BoardInput) -> Pending | None:
    pending = given.view.get("pending")
    if not pending:
        return None
    challenger = _subject(given, pending["challenger"])
    a, b, empty = ", ".join(pending["a"]), ", ".join(pending["b"]), ", ".join(pending["empty"])
    undone = flowers_words(pending["undone"])
    words = ngettext(
        "{player} named field A ({a}) and field B ({b}), with the empty cell {empty} claiming a hidden flower. "
        "The planting {undone} was undone. Both fields are outlined on the field below.",
        "{player} named field A ({a}) and field B ({b}), with the empty cells {empty} claiming hidden flowers. "
        "The planting {undone} was undone. Both fields are outlined on the field below.",
        len(pending["empty"]),
        player=challenger,
        a=a,
        b=b,
        empty=empty,
        undone=undone,
    )
    return Pending(challenger=challenger, a=a, b=b, empty=empty, undone=undone, words=words)


def _outcome(given: BoardInput) -> Outcome | None:
    result = given.view.get("result")
    if not result:
        return None
    winner = result["winners"][0]  # the engine's results have one winner, never a draw
    title = _("You win!") if winner == given.you else _("{player} wins", player=_subject(given, winner))
    lives = ", ".join(f"{given.names[seat]} {count}" for seat, count in enumerate(given.view["lives"]))
    return Outcome(title=title, reason=REASON_WORDS.get(result["reason"], result["reason"]), lives=lives)


# --- what is going on, in a sentence -----------------------------------------------------------------
def _hint(given: BoardInput, sel: Selection) -> str:
    """What the player to act does now."""
    view = given.view
    if not _acting(given):
        return ""
    if view["phase"] == "hide":
        return _("Hide two flowers: pick a cell, its colour, then a second cell and its colour. Nobody else sees them.")
    if view["phase"] == "play" and view["redo"]:
        return _("Your last planting was undone after a successful challenge: plant again (no challenge now).")
    if view["phase"] == "play" and sel.mode == "c":
        return _("Challenge: select field A, then field B, four cells each.")
    if view["phase"] == "play" and view["may_challenge"]:
        return _(
            "Plant one or two flowers next to a flower: pick a cell, then a colour. Or challenge the last planting."
        )
    if view["phase"] == "play":
        return _("Plant one or two flowers next to a flower: pick a cell, then a colour.")
    if view["phase"] == "doubt" and view.get("pending"):
        pending = view["pending"]
        return ngettext(
            "{player} challenged naming empty cell {cells}: announced successful, your planting was undone. "
            "Challenge the challenge if you think it is a bluff, or accept it and plant again.",
            "{player} challenged naming empty cells {cells}: announced successful, your planting was undone. "
            "Challenge the challenge if you think it is a bluff, or accept it and plant again.",
            len(pending["empty"]),
            player=_subject(given, pending["challenger"]),
            cells=", ".join(pending["empty"]),
        )
    if view["phase"] == "final":
        return _("The field is full. Challenge the last planting, or pass; then the game ends.")
    return ""  # choosing the order: the question is in the panel with the buttons


def _status(given: BoardInput) -> str:
    """What is going on, for everyone but the player to act."""
    view = given.view
    if _acting(given) or given.is_over:
        return ""
    turn = _subject(given, view["turn"])
    if view["phase"] == "order":
        return _("{player} has the advantage and chooses who plants first.", player=_subject(given, view["advantage"]))
    if view["phase"] == "hide" and given.seat is not None and view["hidden_chosen"][given.seat]:
        return _("Your flowers are hidden. Waiting for your opponent to hide theirs.")
    if view["phase"] == "hide":
        return _("Both players are hiding two flowers.")
    if view["phase"] == "play" and view["redo"]:
        return _("{player} plants again.", player=turn)
    if view["phase"] == "play":
        return _("{player} is to plant or challenge.", player=turn)
    if view["phase"] == "doubt":
        return _("{player} may challenge the challenge or accept it.", player=turn)
    if view["phase"] == "final":
        return _("The field is full: {player} may challenge or pass.", player=_name(given, view["turn"]))
    return ""
