"""Drawing context for Solitaire Chess: the view's grid as cells a template can draw and click.

Everything here comes from the viewer's engine view and legal moves (every card is face up in this
game, so nothing is hidden, but the rule holds for all games: templates get nothing else).
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import mark_safe

from games.presenters import PlayerView, move_json

SUITS = {
    "S": ("♠", "spades", "black"),
    "H": ("♥", "hearts", "red"),
    "D": ("♦", "diamonds", "red"),
    "C": ("♣", "clubs", "black"),
}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
OUT_REASONS = {"no_moves": "out: no legal move left", "timeout": "out: ran out of time"}


def card_face(card: str | None) -> dict[str, str] | None:
    if not card:
        return None
    rank, suit = card[:-1], card[-1]
    symbol, suit_name, colour = SUITS[suit]
    return {
        "rank": rank,
        "suit": suit,
        "symbol": symbol,
        "colour": colour,
        "label": f"{RANK_WORDS.get(rank, rank)} of {suit_name}",
    }


def _queen(owner: int) -> str:
    return f'<svg class="piece" viewBox="0 0 40 40" aria-hidden="true"><use href="#sc-queen-{int(owner)}"/></svg>'


def grid_html(rows: list[list[dict[str, Any]]], selected: str, my_turn: bool, url: str) -> str:
    """The 90 cells of the board as HTML. Built here rather than in the template language, which
    is several times slower for this many small pieces; every value is escaped."""
    url = escape(url)
    parts = []
    for row in rows:
        for c in row:
            square = escape(c["square"])
            inner = ""
            if c["card"]:
                card = c["card"]
                inner += (
                    f'<span class="card card-{escape(card["colour"])}"><span class="rank">{escape(card["rank"])}</span>'
                    f'<span class="suit">{escape(card["symbol"])}</span></span>'
                )
            if c["owner"] is not None:
                queen = _queen(c["owner"])
                if c["selectable"] and my_turn:
                    inner += (
                        f'<a class="piece-link" href="?select={square}" hx-get="{url}?select={square}" '
                        f'hx-target="#board" hx-swap="outerHTML" aria-label="select your queen on {square}">{queen}</a>'
                    )
                else:
                    inner += queen
            if c["move"]:
                action = f"move to {square}" if selected else f"place a piece on {square}"
                mark = "✕" if c["owner"] is not None else "●"
                inner += (
                    f'<button class="target-button" type="submit" name="move" value="{escape(c["move"])}" '
                    f'aria-label="{action}"><span aria-hidden="true">{mark}</span></button>'
                )
            inner += f'<span class="coord" aria-hidden="true">{square}</span>'
            parts.append(
                f'<div class="{escape(c["cls"])}" role="gridcell" aria-label="{escape(c["label"])}">{inner}</div>'
            )
    return mark_safe("\n".join(parts))


def build(info: PlayerView, params: dict[str, str]) -> dict[str, Any]:
    view = info.view or {}
    legal = info.legal
    selected = params.get("select", "")
    destinations: dict[str, list[str]] = view.get("destinations", {})
    swaps: dict[str, dict[str, list[str]]] = view.get("swaps", {})
    swap_sources = {grey for entries in swaps.values() for grey in entries}
    if selected not in destinations and selected not in swap_sources:
        selected = ""
    legal_json = {move_json(m) for m in legal}

    def legal_or_none(move: dict[str, Any]) -> str | None:
        text = move_json(move)
        return text if text in legal_json else None

    last = view.get("last_move") or {}
    last_squares = {last.get("from"), last.get("to")} - {None}
    targets = set(destinations.get(selected, []))
    place = set(view.get("place_squares", []))
    rows = []
    for row in view.get("grid", []):
        cells = []
        for cell in row:
            square = cell["square"]
            piece = cell.get("piece")
            card = card_face(cell.get("card"))
            mine = piece is not None and piece["owner"] == info.seat
            move = None
            if selected and square in targets:
                move = legal_or_none({"type": "move", "from": selected, "to": square})
            elif not selected and square in place:
                move = legal_or_none({"type": "place", "to": square})
            # Classes and the spoken label are built here, not in the template: 90 cells a page.
            classes = ["sq", f"sq-{cell['kind']}"]
            label = [square]
            if card:
                label.append(f": {card['label']}")
            if piece:
                label.append(", your queen" if mine else ", opponent's queen")
            if square == selected:
                classes.append("selected")
            if square in last_squares:
                classes.append("last")
                label.append(", last move")
            if move:
                classes.append("target")
            entry: dict[str, Any] = {
                "square": square,
                "cls": " ".join(classes),
                "label": "".join(label),
                "card": card,
                "owner": piece["owner"] if piece else None,
                "selectable": piece is not None and (square in destinations or square in swap_sources),
                "move": move,
            }
            cells.append(entry)
        rows.append(cells)

    swap_moves = []
    if selected in swap_sources:
        for removed, entries in sorted(swaps.items()):
            for target in entries.get(selected, []):
                move = legal_or_none({"type": "swap", "remove": removed, "from": selected, "to": target})
                if move:
                    swap_moves.append(
                        {
                            "json": move,
                            "label": f"Remove your piece on {removed}, bring {selected} in to {target}",
                        }
                    )

    order_moves = [
        {"json": move_json(m), "label": "Go first" if m.get("first") else "Go second"}
        for m in legal
        if m.get("type") == "order"
    ]
    players = []
    for p in view.get("players", []):
        stacks = [
            {"suit": card_face("A" + suit), "cards": [card_face(c) for c in p["stacks"][suit]]} for suit in "SHDC"
        ]
        players.append(
            {
                **p,
                "stack_list": stacks,
                "name": info.seats[p["seat"]].name,
                "spare": range(p["pieces_to_place"]),
            }
        )
    return {
        "template": "games/boards/solitaire-chess.html",
        "grid_html": grid_html(rows, selected, info.my_turn, info.match.url),
        "rows": rows,
        "selected": selected,
        "has_targets": bool(targets),
        "swap_moves": swap_moves,
        "order_moves": order_moves,
        "players": players,
        "phase": view.get("phase"),
        "ruleset_name": view.get("ruleset_name"),
        "may_place": bool(place) and not selected,
        "last_move": last,
    }
