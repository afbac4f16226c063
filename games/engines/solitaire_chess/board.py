"""The Solitaire Chess board as typed sections (grid, players, choices, hint) for its Jinja2 template.

Everything comes from the viewer's engine view and legal moves: which squares a piece may reach, where
a piece may be placed and which swaps exist are the engine's (`destinations`, `place_squares`, `swaps`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.solitaire_chess.phrases import RANK_WORDS, the_card
from games.engines.spec import BoardInput, MoveChoice, legal_json, move_json
from games.engines.words import Msg, _, ngettext

SUITS = {
    "S": ("♠", _("spades"), "black"),
    "H": ("♥", _("hearts"), "red"),
    "D": ("♦", _("diamonds"), "red"),
    "C": ("♣", _("clubs"), "black"),
}
# The rule sets' names as the engine gives them, marked for translation.
RULESET_WORDS = {"Death Match": _("Death Match"), "Final Match": _("Final Match")}
OUT_WORDS = {"no_moves": _("out: no legal move left"), "timeout": _("out: ran out of time")}


@dataclass(frozen=True)
class CardFace:
    rank: str
    symbol: str
    colour: str  # "red" or "black": the symbol and the spoken name say the suit too
    label: str


@dataclass(frozen=True)
class Square:
    name: str
    css: str
    label: str
    card: CardFace | None
    owner: int | None  # whose queen stands here
    select_href: str  # "?select=a3" when the viewer may pick this queen, else ""
    move: str  # the move a click submits, "" when none
    move_label: str
    mark: str  # what the target button shows: a cross on a capture, a dot otherwise


@dataclass(frozen=True)
class Stack:
    suit: CardFace
    cards: list[CardFace]


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    summary: str  # "12 cards"
    is_advantage: bool
    out: bool
    stacks: list[Stack]
    in_play: int
    on_grey: int
    to_place: int
    out_words: str


@dataclass(frozen=True)
class Board:
    ruleset_name: str
    phase: str
    hint: str
    selected: str
    rows: list[list[Square]]
    order_choices: list[MoveChoice]
    swap_choices: list[MoveChoice]
    players: list[Player]


def card_face(card: str) -> CardFace:
    rank, suit = card[:-1], card[-1]
    symbol, suit_name, colour = SUITS[suit]
    return CardFace(rank, symbol, colour, _("{rank} of {suit}", rank=RANK_WORDS.get(rank, rank), suit=suit_name))


def present(given: BoardInput) -> Board:
    view = given.view
    destinations: dict[str, list[str]] = view.get("destinations", {})
    swap_sources = {grey for entries in view.get("swaps", {}).values() for grey in entries}
    selected = given.select if given.select in destinations or given.select in swap_sources else ""
    moves_by_square = _moves_by_square(given, selected)
    return Board(
        ruleset_name=RULESET_WORDS.get(view["ruleset_name"], view["ruleset_name"]),
        phase=view["phase"],
        hint=_hint(given, selected, bool(moves_by_square)),
        selected=selected,
        rows=[[_square(given, cell, selected, moves_by_square) for cell in row] for row in view["grid"]],
        order_choices=[
            MoveChoice(move_json(m), _("Go first") if m["first"] else _("Go second"))
            for m in given.legal
            if m["type"] == "order"
        ],
        swap_choices=_swap_choices(given, selected),
        players=[_player(p, given.names) for p in view["players"]],
    )


def _moves_by_square(given: BoardInput, selected: str) -> dict[str, str]:
    """Target square -> the legal move a click there submits: moves of the selected queen, or placements."""
    allowed = legal_json(given.legal)
    if selected:
        targets = given.view["destinations"].get(selected, [])
        candidates = [{"type": "move", "from": selected, "to": to} for to in targets]
    else:
        candidates = [{"type": "place", "to": to} for to in given.view.get("place_squares", [])]
    return {m["to"]: move_json(m) for m in candidates if move_json(m) in allowed}


def _square(given: BoardInput, cell: dict[str, Any], selected: str, moves: dict[str, str]) -> Square:
    name = cell["square"]
    piece = cell.get("piece")
    card = card_face(cell["card"]) if cell.get("card") else None
    last = given.view.get("last_move") or {}
    is_last = name in (last.get("from"), last.get("to"))
    label = _square_label(name, card, piece, given, is_last)
    css = " ".join(
        ["sq", f"sq-{cell['kind']}"]
        + (["selected"] if name == selected else [])
        + (["last"] if is_last else [])
        + (["target"] if name in moves else [])
    )
    may_select = given.my_turn and piece is not None and piece["owner"] == given.seat and _selectable(given, name)
    return Square(
        name=name,
        css=css,
        label=label,
        card=card,
        owner=piece["owner"] if piece else None,
        select_href=f"?select={name}" if may_select else "",
        move=moves.get(name, ""),
        move_label=_("move to {square}", square=name) if selected else _("place a piece on {square}", square=name),
        mark="✕" if piece else "●",
    )


def _square_label(name: str, card: CardFace | None, piece: dict | None, given: BoardInput, is_last: bool) -> str:
    """ "b3: queen of hearts, your queen, last move", each part in the viewer's language."""
    label = _("{square}: {card}", square=name, card=card.label) if card else name
    if piece:
        label = _("{text}, {more}", text=label, more=_queen_of(piece["owner"], given))
    if is_last:
        label = _("{text}, {more}", text=label, more=_("last move"))
    return label


def _queen_of(owner: int, given: BoardInput) -> Msg:
    """Whose queen, for the reader: theirs, their opponent's, or (a reader without a seat) the owner's by name."""
    if given.you is None:
        name = given.names[owner] if 0 <= owner < len(given.names) else str(owner + 1)
        return _("{player}'s queen", player=name)
    return _("your queen") if owner == given.you else _("opponent's queen")


def _selectable(given: BoardInput, square: str) -> bool:
    swaps = given.view.get("swaps", {})
    return square in given.view.get("destinations", {}) or any(square in entries for entries in swaps.values())


def _swap_choices(given: BoardInput, selected: str) -> list[MoveChoice]:
    allowed = legal_json(given.legal)
    choices = []
    for removed, entries in sorted(given.view.get("swaps", {}).items()):
        for target in entries.get(selected, []) if selected else []:
            move = move_json({"type": "swap", "remove": removed, "from": selected, "to": target})
            if move in allowed:
                choices.append(
                    MoveChoice(
                        move,
                        _(
                            "Remove your piece on {removed}, bring {square} in to {target}",
                            removed=removed,
                            square=selected,
                            target=target,
                        ),
                    )
                )
    return choices


def _hint(given: BoardInput, selected: str, has_targets: bool) -> str:
    if not given.my_turn:
        return ""
    if selected:
        return _("Piece on {square} selected: pick a highlighted square, or choose another piece.", square=selected)
    may_move = bool(given.view.get("destinations") or given.view.get("swaps"))
    if has_targets and may_move:
        return _("Place a piece on a marked grey square, or select one of your pieces to move it.")
    if has_targets:
        return _("Place a piece on a marked grey square.")
    if given.view["phase"] == "play":
        return _("Select one of your pieces to see where it may go.")
    return ""


def _player(p: dict[str, Any], names: list[str]) -> Player:
    stacks = [Stack(card_face("A" + suit), [card_face(c) for c in p["stacks"][suit]]) for suit in "SHDC"]
    return Player(
        seat=p["seat"],
        name=names[p["seat"]],
        summary=ngettext("{n} card", "{n} cards", p["cards"]),
        is_advantage=p["is_advantage"],
        out=p["out"],
        stacks=stacks,
        in_play=p["pieces_in_play_area"],
        on_grey=p["pieces_on_grey"],
        to_place=p["pieces_to_place"],
        out_words=OUT_WORDS.get(p["out_reason"] or "", ""),
    )


def move_words(view: dict[str, Any], move: dict[str, Any]) -> Msg:
    """A move in a sentence, for a hint: what it does on this board."""
    kind = move["type"]
    if kind == "order":
        return _("go first") if move["first"] else _("go second")
    if kind == "place":
        return _("place a piece on {square}", square=move["to"])
    target = view["cards"].get(move["to"])
    piece = view["pieces"].get(move["to"])
    gain = _("capture the piece there") if piece is not None else the_card(target) if target else ""
    if kind == "swap":
        return _(
            "remove your piece on {removed}, then move from {start} to {end}: {gain}",
            removed=move["remove"],
            start=move["from"],
            end=move["to"],
            gain=gain,
        )
    return _("move from {start} to {end}: {gain}", start=move["from"], end=move["to"], gain=gain)
