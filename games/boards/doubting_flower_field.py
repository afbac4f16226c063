"""Drawing context for Doubting Flower Field: the 7x7 field with its flowers, the viewer's own hidden
flowers, and three ways of building a move by clicking cells (hiding, planting, challenging).

Everything here comes from the viewer's engine view (rulings ALL-3, FF-2: a player's own hidden
flowers only, nobody's before the end for a spectator). `info.legal` is used only to check that a
hide, plant or other button offered is legal; its challenge entries are never read, because the site
must not tell whether equal fields exist (FF-9). A challenge is any two fields the player selects; the
engine judges it and refuses a malformed pair with a message.

The selection travels in `params["select"]` (at most 64 characters), built up by plain links:
    p:C4        planting, first cell chosen            h:C4      hiding, the same steps
    p:C4r       its colour chosen (r, b, y)            h:C4rE5   hiding, second cell chosen
    p:C4rE5     a second cell chosen, colour to pick
    ca:C4C5C6D6:E1F1   challenge mode, field A then field B; "ca"/"cb" says which field a click edits
A trailing "@<version>" (only on the challenge button's post address) keeps the selection after a
refused challenge and drops it once the match has moved on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.engines.flower_field.fields import CELL_INDEX, CELLS, CENTRE, COLOURS, SIZE
from games.models import fill_names
from games.presenters import PlayerView, move_json

COLUMNS = "ABCDEFG"
LETTER = {"red": "r", "blue": "b", "yellow": "y"}
COLOUR_OF_LETTER = {letter: colour for colour, letter in LETTER.items()}
CELL = r"[A-G][1-7]"
FLOWERS_SELECT = re.compile(rf"^([ph]):({CELL})(?:([rby])({CELL})?)?$")
CHALLENGE_SELECT = re.compile(rf"^c([ab])(?::((?:{CELL}){{0,4}}))?(?::((?:{CELL}){{0,4}}))?$")
VERSION_STAMP = re.compile(r"^(.*)@(\d+)$")
LIVES = 5
PHASE_WORDS = {
    "order": "Choosing who plants first",
    "hide": "Hiding flowers",
    "play": "Planting",
    "doubt": "Challenge-challenge?",
    "final": "The field is full",
    "over": "Game over",
}
STATUS_WORDS = {"live": "hidden", "cancelled": "cancelled", "exploded": "exploded"}


@dataclass
class Selection:
    """What the viewer has clicked so far; empty when nothing (or nothing valid) is selected."""

    mode: str = ""  # "p" planting, "h" hiding, "c" challenging, "" nothing
    first: str = ""  # p/h: the first cell
    colour: str = ""  # p/h: the first cell's colour, once chosen
    second: str = ""  # p/h: the second cell, waiting for its colour
    active: str = "a"  # c: the field a click edits
    a: list[str] = field(default_factory=list)
    b: list[str] = field(default_factory=list)

    def code(self) -> str:
        if self.mode == "c":
            return f"c{self.active}:{''.join(self.a)}:{''.join(self.b)}"
        if not self.mode or not self.first:
            return ""
        return f"{self.mode}:{self.first}{LETTER.get(self.colour, '')}{self.second}"


def parse_selection(text: str, version: int) -> Selection:
    """Read `params["select"]`; anything malformed or stale reads as no selection."""
    stamped = VERSION_STAMP.match(text)
    if stamped:
        if int(stamped.group(2)) != version:
            return Selection()  # chosen before the last move: the board has changed since
        text = stamped.group(1)
    found = FLOWERS_SELECT.match(text)
    if found:
        mode, first, letter, second = found.groups()
        if second == first:
            second = None
        return Selection(mode=mode, first=first, colour=COLOUR_OF_LETTER.get(letter or "", ""), second=second or "")
    found = CHALLENGE_SELECT.match(text)
    if found:
        active, a, b = found.groups()

        def cells(run: str | None) -> list[str]:
            names = re.findall(CELL, run or "")
            return list(dict.fromkeys(names))  # a cell named twice counts once

        return Selection(mode="c", active=active, a=cells(a), b=cells(b))
    return Selection()


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def flower_svg(colour: str, extra: str = "") -> str:
    """One flower picture (the shapes are symbols in the template: 5 round petals for red, 4 pointed
    for blue, 8 narrow for yellow, each with its letter, so colour is never the only sign)."""
    colour = colour if colour in LETTER else "yellow"
    return (
        f'<svg class="ff-flower ff-{colour}{" " + extra if extra else ""}" viewBox="0 0 40 40" '
        f'aria-hidden="true" focusable="false"><use href="#ff-{colour}"/></svg>'
    )


def hidden_svg(colour: str, status: str, owner_class: str = "") -> str:
    """A hidden flower: the same shape, pale, inside a dashed ring; crossed out once cancelled."""
    cross = '<path class="ff-cross" d="M6 6 L34 34 M34 6 L6 34"/>' if status == "cancelled" else ""
    return (
        f'<svg class="ff-hid ff-hid-{escape(status)}{" " + owner_class if owner_class else ""}" viewBox="0 0 40 40" '
        f'aria-hidden="true" focusable="false"><circle class="ff-hid-ring" cx="20" cy="20" r="18"/>'
        f'<use href="#ff-{escape(colour)}" class="ff-hid-flower"/>{cross}</svg>'
    )


BURST = (
    '<svg class="ff-burst" viewBox="0 0 40 40" aria-hidden="true" focusable="false">'
    '<path d="M20 1 L24 13 L36 7 L29 18 L39 22 L27 25 L32 38 L20 29 L9 38 L13 25 L1 21 L12 17 L5 6 L16 12 Z"/>'
    "</svg>"
)


def mini_field_svg(a: list[str], b: list[str], seen: dict[str, str | None]) -> SafeString:
    """A small picture of a challenge: the two named fields, cropped to the cells they cover, each
    named cell in the colour it had when the challenge was made (with its letter), "?" for an empty
    one; field A outlined solid, field B dashed."""
    size = 10
    named = list(dict.fromkeys(a + b))
    columns = [CELL_INDEX[c] % SIZE for c in named]
    rows = [CELL_INDEX[c] // SIZE for c in named]
    left, top_row = min(columns), max(rows)  # row 7 is drawn on top
    width, height = (max(columns) - left + 1) * size, (top_row - min(rows) + 1) * size
    parts = [
        f'<svg class="ff-mini" viewBox="-1 -1 {width + 2} {height + 2}" width="{(width + 2) * 2.2:.0f}" '
        f'height="{(height + 2) * 2.2:.0f}" aria-hidden="true" focusable="false">'
    ]
    for cell in named:
        index = CELL_INDEX[cell]
        x = (index % SIZE - left) * size
        y = (top_row - index // SIZE) * size
        colour = seen.get(cell)
        fill = f"ff-mini-{colour}" if colour in LETTER else "ff-mini-empty"
        letter = LETTER[colour].upper() if colour in LETTER else "?"
        parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" class="{fill}"/>')
        parts.append(f'<text x="{x + size / 2}" y="{y + size / 2}" class="ff-mini-letter">{letter}</text>')
        if cell in a:
            parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" class="ff-mini-a"/>')
        if cell in b:
            parts.append(
                f'<rect x="{x + 2.5}" y="{y + 2.5}" width="{size - 5}" height="{size - 5}" class="ff-mini-b"/>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def build(info: PlayerView, params: dict[str, str]) -> dict[str, Any]:
    view = info.view or {}
    phase: str = view.get("phase", "order")
    over = phase == "over"
    me = info.seat
    my_turn = info.my_turn and not over
    url = info.match.url
    names = {s.number: s.name for s in info.seats}
    fill = {f"p{n}": name for n, name in names.items()}

    def name_of(seat: int | None) -> str:
        if seat is None:
            return ""
        return "you" if seat == me else names.get(seat, f"seat {seat + 1}")

    # The legal moves, challenges left out: they are never shown nor used for hints (FF-9). Plantings
    # and hidings are keyed by their flowers, not their JSON (10,152 hidings would take 50 ms to dump),
    # and the set is built only when a button is about to be offered.
    def key(move: dict[str, Any]) -> Any:
        if move.get("type") in ("plant", "hide"):
            return move["type"], tuple((f["cell"], f["colour"]) for f in move["flowers"])
        return move_json(move)

    legal_keys: set[Any] = set()

    def legal_or_none(move: dict[str, Any]) -> str | None:
        if not my_turn:
            return None
        if not legal_keys:
            legal_keys.update(key(m) for m in info.legal if m.get("type") != "challenge")
        return move_json(move) if key(move) in legal_keys else None

    def flowers_move(kind: str, flowers: list[tuple[str, str]]) -> str | None:
        # The engine lists two flowers in board order; it accepts either order, so ask in that one.
        ordered = sorted(flowers, key=lambda f: CELL_INDEX[f[0]])
        return legal_or_none({"type": kind, "flowers": [{"cell": c, "colour": k} for c, k in ordered]})

    # --- what the viewer may do now, and which cells can be clicked for it ---------------------
    hiding = my_turn and phase == "hide"
    planting = my_turn and phase == "play" and any(m.get("type") == "plant" for m in info.legal)
    may_challenge = my_turn and bool(view.get("may_challenge"))
    # Cells a single flower may go on: from the legal plantings (FF-3), or any cell but D4 to hide.
    if planting:
        open_cells = {
            m["flowers"][0]["cell"] for m in info.legal if m.get("type") == "plant" and len(m["flowers"]) == 1
        }
    elif hiding:
        open_cells = {c for c in CELLS if c != CENTRE}
    else:
        open_cells = set()

    sel = parse_selection(params.get("select", ""), info.match.version)
    if sel.mode == "c" and not may_challenge:
        sel = Selection()
    if sel.mode in ("p", "h"):
        wanted = "p" if planting else "h" if hiding else ""
        if sel.mode != wanted or sel.first not in open_cells:
            sel = Selection()
        elif sel.second and (not sel.colour or sel.second not in open_cells):
            sel.second = ""
    if not sel.mode:
        if phase == "final" and may_challenge:
            sel = Selection(mode="c")  # nothing to plant on a full field: challenging is the choice
        elif hiding:
            sel = Selection(mode="h")
        elif planting:
            sel = Selection(mode="p")

    url_blank = "-"  # "back to nothing selected": the plain match address

    def link_for(cell: str) -> str | None:
        """The selection a click on `cell` leads to, or None when the cell is not clickable now."""
        if sel.mode in ("p", "h"):
            if cell not in open_cells:
                return None
            if not sel.first:
                return f"{sel.mode}:{cell}"
            if cell == sel.first:  # a click on the chosen cell steps back
                return f"{sel.mode}:{cell}" if sel.colour else url_blank
            if not sel.colour:
                return f"{sel.mode}:{cell}"  # another first cell
            if cell == sel.second:
                return f"{sel.mode}:{sel.first}{LETTER[sel.colour]}"
            return f"{sel.mode}:{sel.first}{LETTER[sel.colour]}{cell}"
        if sel.mode == "c":
            a, b = list(sel.a), list(sel.b)
            edited = a if sel.active == "a" else b
            if cell in edited:
                edited.remove(cell)
            elif len(edited) < 4:
                edited.append(cell)
            else:
                return None  # this field is full: remove a cell first, or edit the other field
            active = sel.active
            # Once field A has its four cells, the next clicks go to field B.
            if active == "a" and len(a) == 4 and len(b) < 4 and cell in a:
                active = "b"
            return Selection(mode="c", active=active, a=a, b=b).code()
        return None

    def href(code: str) -> tuple[str, str]:
        """(href, hx-get) for a selection; the fragment takes a no-JavaScript reload to the field."""
        if code == url_blank or not code:
            return f"{url}#ff-field", url
        return f"{url}?select={code}#ff-field", f"{url}?select={code}"

    # --- the cells -----------------------------------------------------------------------------
    pending = view.get("pending")
    all_hidden: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    if over:  # ALL-3: everything is public after the end
        for seat, flowers in enumerate(view.get("all_hidden", [])):
            for h in flowers:
                all_hidden.setdefault(h["cell"], []).append((seat, h))
    if sel.mode == "c":
        shown_a, shown_b = sel.a, sel.b
    elif pending:
        shown_a, shown_b = pending["a"], pending["b"]  # the challenge now in doubt is public
    else:
        shown_a, shown_b = [], []
    pending_flowers: dict[str, str] = {}
    if sel.mode in ("p", "h") and sel.first:
        pending_flowers[sel.first] = sel.colour

    rows = []
    for row in view.get("grid", []):
        cells = []
        for c in row["cells"]:
            name = c["cell"]
            colour = c["colour"]
            classes = ["ff-cell"]
            words = [name + ":"]
            inner = []
            if colour:
                classes.append("ff-filled")
                inner.append(flower_svg(colour))
                words.append(f"{colour} flower")
            elif name in pending_flowers:
                chosen = pending_flowers[name]
                if chosen:
                    inner.append(flower_svg(chosen, "ff-chosen"))
                    words.append(f"empty, your {chosen} flower to {'hide' if sel.mode == 'h' else 'plant'} here")
                else:
                    words.append("empty, selected: pick a colour")
            else:
                words.append("empty")
            if name == sel.second:
                words.append("selected as your second cell: pick a colour")
            if name in pending_flowers or name == sel.second:
                classes.append("ff-selected")
            if c["last"]:
                classes.append("ff-last")
                inner.append('<span class="ff-last-mark" aria-hidden="true"></span>')
                words.append("planted last turn")
            if c["exploded"]:
                classes.append("ff-exploded")
                inner.append(BURST)
                words.append("a hidden flower exploded here")
            own = c.get("hidden")
            if own and not over:
                classes.append("ff-own-hidden")
                inner.append(hidden_svg(own["colour"], own["status"]))
                words.append(f"your hidden {own['colour']} flower ({STATUS_WORDS.get(own['status'], own['status'])})")
            if len(all_hidden.get(name, [])) > 1:
                classes.append("ff-two-hidden")  # both hid here (cancelled): one in each corner
            for seat, h in all_hidden.get(name, []):
                classes.append("ff-own-hidden")
                inner.append(hidden_svg(h["colour"], h["status"], f"ff-hid-seat-{seat}"))
                whose = "your" if seat == me else f"{names.get(seat, '')}'s"
                words.append(f"{whose} hidden {h['colour']} flower ({STATUS_WORDS.get(h['status'], h['status'])})")
            in_a, in_b = name in shown_a, name in shown_b
            if in_a:
                classes.append("ff-in-a")
                words.append("in field A")
            if in_b:
                classes.append("ff-in-b")
                words.append("in field B")
            if in_a or in_b:
                tags = ('<span class="ff-tag ff-tag-a">A</span>' if in_a else "") + (
                    '<span class="ff-tag ff-tag-b">B</span>' if in_b else ""
                )
                inner.append(f'<span class="ff-tags" aria-hidden="true">{tags}</span>')
            target = link_for(name)
            if sel.mode in ("p", "h") and name in open_cells:
                classes.append("ff-open")
            text = ", ".join([words[0] + " " + words[1], *words[2:]]) if len(words) > 1 else words[0]
            if target:
                if sel.mode == "c":
                    editing = "A" if sel.active == "a" else "B"
                    in_edited = name in (sel.a if sel.active == "a" else sel.b)
                    action = (
                        f"{'remove' if in_edited else 'add'} {name} {'from' if in_edited else 'to'} field {editing}"
                    )
                elif name in pending_flowers or name == sel.second:
                    action = f"unselect {name}"
                elif sel.mode == "h":
                    action = f"choose {name} to hide a flower"
                else:
                    action = f"choose {name} to plant a flower"
                link, get = href(target)
                inner.append(
                    # The id lets htmx give the focus back to this cell after the board is redrawn.
                    f'<a class="ff-pick" id="ff-pick-{name}" href="{escape(link)}" hx-get="{escape(get)}" '
                    f'hx-target="#board" hx-swap="outerHTML" aria-label="{escape(action)}. {escape(text)}"></a>'
                )
            else:
                inner.append(f'<span class="sr-only">{escape(text)}</span>')
            cells.append(f'<td class="{" ".join(classes)}"><div class="ff-in">{"".join(inner)}</div></td>')
        rows.append(f'<tr><th scope="row">{row["row"]}</th>{"".join(cells)}</tr>')
    head = "".join(f'<th scope="col">{col}</th>' for col in COLUMNS)
    grid_html = mark_safe(f"<thead><tr><td></td>{head}</tr></thead><tbody>{''.join(rows)}</tbody>")

    # --- the controls for the mode -------------------------------------------------------------
    controls: dict[str, Any] = {"mode": sel.mode}
    colour_links = []
    colour_buttons = []
    alone = None
    if sel.mode in ("p", "h") and sel.first:
        verb = "Hide" if sel.mode == "h" else "Plant"
        if sel.colour and sel.second:
            for colour in COLOURS:
                move = flowers_move(
                    "hide" if sel.mode == "h" else "plant", [(sel.first, sel.colour), (sel.second, colour)]
                )
                if move:
                    colour_buttons.append(
                        {
                            "json": move,
                            "colour": colour,
                            "flower": mark_safe(flower_svg(colour)),
                            "label": f"{verb} {sel.colour} {sel.first} and {colour} {sel.second}",
                        }
                    )
        elif not sel.colour and sel.mode == "p":
            for colour in COLOURS:
                move = flowers_move("plant", [(sel.first, colour)])
                if move:
                    colour_buttons.append(
                        {
                            "json": move,
                            "colour": colour,
                            "flower": mark_safe(flower_svg(colour)),
                            "label": f"Plant {colour} {sel.first}",
                        }
                    )
        if not sel.second:
            for colour in COLOURS:
                link, get = href(f"{sel.mode}:{sel.first}{LETTER[colour]}")
                colour_links.append(
                    {
                        "href": link,
                        "get": get,
                        "colour": colour,
                        "flower": mark_safe(flower_svg(colour)),
                        "current": colour == sel.colour,
                        "label": f"{colour} on {sel.first}",
                    }
                )
        if sel.mode == "p" and sel.colour:
            alone = {
                "json": flowers_move("plant", [(sel.first, sel.colour)]),
                "label": f"Plant only {sel.colour} {sel.first}",
            }
        controls.update({"verb": verb, "first": sel.first, "colour": sel.colour, "second": sel.second})
    controls["colour_buttons"] = colour_buttons
    controls["colour_links"] = colour_links
    controls["alone"] = alone if alone and alone["json"] else None

    challenge = None
    if sel.mode == "c":
        complete = len(sel.a) == 4 and len(sel.b) == 4
        submit = None
        if complete:
            # The pair as selected; whether it is well formed is the engine's call (FF-5).
            move = {"type": "challenge", "a": sel.a, "b": sel.b}
            stamp = f"{sel.code()}@{info.match.version}"
            submit = {
                "json": move_json(move),
                # Posted with the selection, so a refused pair comes back still selected.
                "action": f"{reverse('move', args=[info.match.id])}?select={stamp}",
                "label": f"Challenge: A = {', '.join(sel.a)}; B = {', '.join(sel.b)}",
            }
        switch = "b" if sel.active == "a" else "a"
        switch_href, switch_get = href(Selection(mode="c", active=switch, a=sel.a, b=sel.b).code())
        clear_href, clear_get = href(Selection(mode="c").code())
        empty_named = sorted({c for c in sel.a + sel.b if not view.get("board", {}).get(c)})
        challenge = {
            "active": sel.active.upper(),
            "other": switch.upper(),
            "a": sel.a,
            "b": sel.b,
            "a_count": len(sel.a),
            "b_count": len(sel.b),
            "empty_named": empty_named,
            "switch_href": switch_href,
            "switch_get": switch_get,
            "clear_href": clear_href,
            "clear_get": clear_get,
            "any": bool(sel.a or sel.b),
            "submit": submit,
            "final": phase == "final",
        }
    controls["challenge"] = challenge
    if may_challenge and sel.mode != "c":
        start_href, start_get = href(Selection(mode="c").code())
        controls["start_challenge"] = {"href": start_href, "get": start_get}
    if sel.mode == "c" and planting:
        back_href, back_get = href(url_blank)
        controls["back_to_planting"] = {"href": back_href, "get": back_get}
    if sel.mode in ("p", "h") and sel.first:
        reset_href, reset_get = href(url_blank)
        controls["reset"] = {"href": reset_href, "get": reset_get}
    # Each asked only in its own phase (so that a hiding page need not look at 10,152 hidings).
    controls["give_up"] = legal_or_none({"type": "give_up"}) if sel.mode == "c" and phase == "play" else None
    controls["pass"] = legal_or_none({"type": "pass"}) if phase == "final" else None
    doubting = phase == "doubt"
    controls["challenge_challenge"] = legal_or_none({"type": "challenge_challenge"}) if doubting else None
    controls["accept"] = legal_or_none({"type": "accept"}) if doubting else None
    controls["order"] = []
    if phase == "order":
        for go, label in (("first", "Plant first"), ("second", "Plant second")):
            move = legal_or_none({"type": "order", "go": go})
            if move:
                controls["order"].append({"json": move, "label": label})

    # --- players: lives drawn as hearts --------------------------------------------------------
    lives = view.get("lives", [LIVES, LIVES])
    result = view.get("result") or None
    winners = set(result["winners"]) if result else set()
    hidden_chosen = view.get("hidden_chosen", [False, False])
    players = []
    for seat in (0, 1):
        count = lives[seat]
        players.append(
            {
                "seat": seat,
                "name": names.get(seat, f"seat {seat + 1}"),
                "you": seat == me,
                "lives": count,
                "hearts": [True] * count + [False] * max(0, LIVES - count),
                "advantage": seat == view.get("advantage"),
                "first": seat == view.get("first"),
                "to_act": seat in view.get("to_act", []),
                "hidden_chosen": hidden_chosen[seat],
                "won": seat in winners,
                "give_ups": view.get("give_ups", []).count(seat),
            }
        )

    # --- the viewer's own hidden flowers ---------------------------------------------------------
    own_hidden = []
    for h in view.get("hidden", []):
        status = h["status"]
        if status == "cancelled":
            words = f"{h['colour']} on {h['cell']}: cancelled, your opponent hid a flower on the same cell"
        elif status == "exploded":
            words = f"{h['colour']} on {h['cell']}: exploded (a flower was planted on it)"
        else:
            words = f"{h['colour']} on {h['cell']}: hidden, still there"
        own_hidden.append({**h, "words": words, "picture": mark_safe(hidden_svg(h["colour"], status))})
    # FF-2: told privately; after the end the list of every hidden flower says it for all.
    cancelled = [h["cell"] for h in view.get("hidden", []) if h["status"] == "cancelled"] if not over else []

    # --- challenges: what was announced (FF-5, FF-7); the truth only after the end -------------
    challenges = []
    for number, ch in enumerate(view.get("challenges", []), start=1):
        if ch["announced"] == "successful":
            verdict = "successful"
        else:
            verdict = "failed"
        doubt = {
            "successful": "challenged back: successful (the challenge was a bluff)",
            "failed": "challenged back: failed (the challenge stood)",
            "accepted": "accepted",
        }.get(ch.get("doubt") or "", "")
        truth = ""
        if "truth" in ch:
            truth = "true: the two fields were equal" if ch["truth"] else "false: the two fields were not equal"
        challenges.append(
            {
                "number": number,
                "who": name_of(ch["seat"]),
                "a": ", ".join(ch["a"]),
                "b": ", ".join(ch["b"]),
                "empty": ", ".join(ch["empty"]),
                "verdict": verdict,
                "doubt": doubt,
                "final": ch.get("final"),
                "truth": truth,
                "picture": mini_field_svg(ch["a"], ch["b"], ch.get("seen", {})),
            }
        )
    challenges.reverse()  # newest first

    plantings = view.get("plantings", [])
    undone = [
        {
            "who": name_of(p["seat"]),
            "flowers": _and([f"{f['colour']} {f['cell']}" for f in p["flowers"]]),
        }
        for p in plantings
        if not p["standing"]
    ]

    # --- what is going on, in one sentence -------------------------------------------------------
    turn = view.get("turn")
    status = ""
    hint = ""
    if phase == "order":
        chooser = view.get("advantage")
        if not my_turn:  # the player to choose gets the question in the panel with the buttons
            status = f"{name_of(chooser).capitalize()} has the advantage and chooses who plants first."
    elif phase == "hide":
        if my_turn:
            hint = (
                "Hide two flowers: pick a cell (not D4), its colour, then a second cell and its colour. "
                "Nobody else sees them."
            )
        elif me is not None and hidden_chosen[me]:
            status = "Your flowers are hidden. Waiting for your opponent to hide theirs."
        else:
            status = "Both players are hiding two flowers."
    elif phase == "play":
        if my_turn and view.get("redo"):
            hint = "Your last planting was undone after a successful challenge: plant again (no challenge now)."
        elif my_turn and sel.mode == "c":
            hint = "Challenge: select field A, then field B, four cells each."
        elif my_turn:
            hint = "Plant one or two flowers next to a flower: pick a cell, then a colour."
            if may_challenge:
                hint += " Or challenge the last planting."
        else:
            status = (
                f"{name_of(turn).capitalize()} {'plants again' if view.get('redo') else 'is to plant or challenge'}."
            )
    elif phase == "doubt" and pending:
        challenger = name_of(pending["challenger"])
        if my_turn:
            hint = (
                f"{challenger.capitalize()} challenged naming empty cell{'s' if len(pending['empty']) > 1 else ''} "
                f"{', '.join(pending['empty'])}: announced successful, your planting was undone. "
                "Challenge the challenge if you think it is a bluff, or accept it and plant again."
            )
        else:
            status = f"{name_of(turn).capitalize()} may challenge the challenge or accept it."
    elif phase == "final":
        if my_turn:
            hint = "The field is full. Challenge the last planting, or pass; then the game ends."
        else:
            status = f"The field is full: {name_of(turn)} may challenge or pass."

    pending_words = None
    if pending:
        pending_words = {
            "challenger": name_of(pending["challenger"]),
            "a": ", ".join(pending["a"]),
            "b": ", ".join(pending["b"]),
            "empty": ", ".join(pending["empty"]),
            "empty_words": "the empty cell" if len(pending["empty"]) == 1 else "the empty cells",
            "undone": _and([f"{f['colour']} {f['cell']}" for f in pending["undone"]]),
        }

    outcome = None
    if result:
        winner = result["winners"][0] if result["winners"] else None
        outcome = {
            "winner": name_of(winner),
            "you_won": winner == me,
            "reason": fill_names(result.get("reason", ""), fill),
            "scores": result.get("scores", []),
        }
    hidden_at_end = []
    if over:
        for seat, flowers in enumerate(view.get("all_hidden", [])):
            hidden_at_end.append(
                {
                    "name": names.get(seat, ""),
                    "seat": seat,
                    "flowers": [
                        {
                            **h,
                            "words": f"{h['colour']} on {h['cell']} ({STATUS_WORDS.get(h['status'], h['status'])})",
                            "picture": mark_safe(hidden_svg(h["colour"], h["status"], f"ff-hid-seat-{seat}")),
                        }
                        for h in flowers
                    ],
                }
            )

    return {
        "template": "games/boards/doubting-flower-field.html",
        "phase": phase,
        "phase_words": PHASE_WORDS.get(phase, phase),
        "over": over,
        "my_turn": my_turn,
        "hint": hint,
        "status": status,
        "grid_html": grid_html,
        "controls": controls,
        "players": players,
        "own_hidden": own_hidden,
        "cancelled": cancelled,
        "challenges": challenges,
        "undone": undone,
        "explosions": view.get("explosions", []),
        "pending": pending_words,
        "outcome": outcome,
        "hidden_at_end": hidden_at_end,
        "flower_count": len(view.get("board", {})),
        "selecting": sel.mode == "c",
        # The panel under the field, only when there is something to pick there.
        "show_controls": my_turn and sel.mode in ("p", "h", "c"),
    }
