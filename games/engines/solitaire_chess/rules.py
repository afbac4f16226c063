"""Solitaire Chess: board geometry, cards and move generation, as pure functions on plain data.

Used by the engine (on the state) and by the bots (on a view): both hold the same three things,
`cards` (square -> card), `pieces` (square -> {"owner": seat, ...}) and per-seat suit stacks.

Squares (ruling SC-1) live on a 10 x 9 grid: columns a-j from left to right, rows 0-8 from bottom
to top, named column letter + row digit ("c0", "e4"):

- play area (yellow): columns b-i, rows 1-7, without its four corners -> 52 squares, each with a card;
- holes: those four corners b1, i1, b7, i7 -> nothing stands there, but a move may cross them;
- grey squares: the ring just outside the play area (column a and column j, rows 1-7; row 0 and
  row 8, columns b-i) -> 30 squares. The ring's own corners a0, j0, a8, j8 are not squares.

Cards are rank + suit letter: "AH", "2C", ..., "10S", "JD", "QH", "KC". Suits C, D, H, S (clubs,
diamonds, hearts, spades). Ranks run A=1 (low) to K=13 (high).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.solitaire_chess.phrases import SUIT_SINGULAR
from games.engines.words import _

COLUMNS = "abcdefghij"
ROWS = range(9)
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=1)}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

PLAY = "play"
GREY = "grey"
HOLE = "hole"

# At most this many of one player's pieces in the play area in the Final Match (ruling SC-5).
FINAL_MATCH_PLAY_LIMIT = 3
# Death Match: each of a player's first 5 captures gives them a piece (ruling SC-5).
DEATH_MATCH_BONUS_CAPTURES = 5
# Final Match: each of the game's first 6 captures gives both players a piece (ruling SC-5).
FINAL_MATCH_BONUS_CAPTURES = 6
SETUP_PIECES = 5


def square_name(column: int, row: int) -> str:
    return f"{COLUMNS[column]}{row}"


def _kind_of(column: int, row: int) -> str | None:
    inside_columns = 1 <= column <= 8
    inside_rows = 1 <= row <= 7
    if inside_columns and inside_rows:
        is_corner = column in (1, 8) and row in (1, 7)
        return HOLE if is_corner else PLAY
    on_ring_column = column in (0, 9) and inside_rows
    on_ring_row = row in (0, 8) and inside_columns
    if on_ring_column or on_ring_row:
        return GREY
    return None  # the ring's corners and everything beyond: not part of the board


# Square name -> PLAY, GREY or HOLE. Iteration order: row 0 first, column a first.
KIND: dict[str, str] = {}
for _row in ROWS:
    for _column in range(len(COLUMNS)):
        _kind = _kind_of(_column, _row)
        if _kind is not None:
            KIND[square_name(_column, _row)] = _kind

PLAY_SQUARES: tuple[str, ...] = tuple(sq for sq, kind in KIND.items() if kind == PLAY)
GREY_SQUARES: tuple[str, ...] = tuple(sq for sq, kind in KIND.items() if kind == GREY)
HOLES: tuple[str, ...] = tuple(sq for sq, kind in KIND.items() if kind == HOLE)

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _ray(square: str, step: tuple[int, int]) -> tuple[str, ...]:
    """The board squares (holes included) in one queen direction, nearest first."""
    column, row = COLUMNS.index(square[0]), int(square[1:])
    squares = []
    while True:
        column, row = column + step[0], row + step[1]
        if not (0 <= column < len(COLUMNS) and 0 <= row < len(ROWS)):
            break
        name = square_name(column, row)
        if name not in KIND:
            # A ring corner. No straight line goes on from one back onto the board, so stopping
            # here loses nothing.
            break
        squares.append(name)
    return tuple(squares)


# Square -> its (up to) 8 rays, for every square a piece may stand on.
RAYS: dict[str, tuple[tuple[str, ...], ...]] = {
    sq: tuple(ray for ray in (_ray(sq, step) for step in DIRECTIONS) if ray)
    for sq, kind in KIND.items()
    if kind != HOLE
}


# --- cards ------------------------------------------------------------------------------------


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> int:
    return RANK_VALUE[card[:-1]]


def card_name(card: str) -> str:
    """ "QH" -> "the queen of hearts"; "9H" -> "the 9 of hearts"."""
    rank = card[:-1]
    return f"the {RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"


def top_rank(stack: list[str]) -> int:
    """The rank a new card of this suit must beat; 0 for an empty stack (any card fits)."""
    return rank_of(stack[-1]) if stack else 0


def fits(card: str, stacks: Mapping[str, list[str]]) -> bool:
    """True when `card` outranks the top of the matching suit stack (ruling SC-4)."""
    return rank_of(card) > top_rank(stacks[suit_of(card)])


def empty_stacks() -> dict[str, list[str]]:
    return {suit: [] for suit in SUITS}


# --- moves ------------------------------------------------------------------------------------

Pieces = Mapping[str, Mapping[str, Any]]


def in_play_count(pieces: Pieces, seat: int) -> int:
    return sum(1 for sq, piece in pieces.items() if piece["owner"] == seat and KIND[sq] == PLAY)


def piece_destinations(
    cards: Mapping[str, str], pieces: Pieces, stacks: Mapping[str, list[str]], square: str
) -> list[str]:
    """Where the piece on `square` may move to (captures included), ignoring the Final Match limit.

    A queen line over empty squares and holes; any piece blocks (ruling SC-4). The move must end
    in the play area: on an empty square whose card fits the mover's stack, or on an enemy piece
    when the mover starts in the play area (a piece entering from grey cannot capture)."""
    owner = pieces[square]["owner"]
    from_grey = KIND[square] == GREY
    found = []
    for ray in RAYS[square]:
        for target in ray:
            kind = KIND[target]
            if kind == HOLE:
                continue  # crossed, never landed on (ruling SC-1)
            piece = pieces.get(target)
            if piece is not None:
                if piece["owner"] != owner and kind == PLAY and not from_grey:
                    found.append(target)
                break
            if kind == PLAY and fits(cards[target], stacks):
                found.append(target)
            # An empty grey square is not a landing place (no grey -> grey, no way back out), but
            # it does not block either; from it a line only runs off the board anyway.
    return found


def move_destinations(
    cards: Mapping[str, str],
    pieces: Pieces,
    stacks: Mapping[str, list[str]],
    seat: int,
    final_match: bool,
) -> dict[str, list[str]]:
    """Each of `seat`'s pieces that can make an ordinary move -> its destinations."""
    grey_may_enter = not final_match or in_play_count(pieces, seat) < FINAL_MATCH_PLAY_LIMIT
    result = {}
    for square, piece in pieces.items():
        if piece["owner"] != seat:
            continue
        if KIND[square] == GREY and not grey_may_enter:
            continue  # ruling SC-5: three in the play area already; only a swap brings one in
        targets = piece_destinations(cards, pieces, stacks, square)
        if targets:
            result[square] = targets
    return result


def swap_destinations(
    cards: Mapping[str, str],
    pieces: Pieces,
    stacks: Mapping[str, list[str]],
    seat: int,
    final_match: bool,
) -> dict[str, dict[str, list[str]]]:
    """Final Match swap-in turns (ruling SC-5): removed piece -> grey piece -> its destinations.

    Only for a player with 3 pieces in the play area. The removed piece leaves first, so the
    entering piece may cross or land on the square it left (a table rule we chose)."""
    if not final_match or in_play_count(pieces, seat) < FINAL_MATCH_PLAY_LIMIT:
        return {}
    own_grey = [sq for sq, p in pieces.items() if p["owner"] == seat and KIND[sq] == GREY]
    if not own_grey:
        return {}
    result: dict[str, dict[str, list[str]]] = {}
    for removed in sorted(sq for sq, p in pieces.items() if p["owner"] == seat and KIND[sq] == PLAY):
        without = {sq: p for sq, p in pieces.items() if sq != removed}
        entries = {}
        for grey in own_grey:
            targets = piece_destinations(cards, without, stacks, grey)
            if targets:
                entries[grey] = targets
        if entries:
            result[removed] = entries
    return result


def place_squares(pieces: Pieces) -> list[str]:
    """Empty grey squares: where a piece in hand may be placed."""
    return [sq for sq in GREY_SQUARES if sq not in pieces]


def play_moves(
    cards: Mapping[str, str],
    pieces: Pieces,
    stacks: Mapping[str, list[str]],
    seat: int,
    in_hand: int,
    final_match: bool,
) -> list[dict[str, Any]]:
    """Every legal move of `seat` in the play phase, as move dicts."""
    moves: list[dict[str, Any]] = []
    for origin, targets in move_destinations(cards, pieces, stacks, seat, final_match).items():
        moves.extend({"type": "move", "from": origin, "to": target} for target in targets)
    for removed, entries in swap_destinations(cards, pieces, stacks, seat, final_match).items():
        for origin, targets in entries.items():
            moves.extend({"type": "swap", "remove": removed, "from": origin, "to": target} for target in targets)
    if in_hand > 0:
        moves.extend({"type": "place", "to": sq} for sq in place_squares(pieces))
    return moves


def has_play_move(
    cards: Mapping[str, str],
    pieces: Pieces,
    stacks: Mapping[str, list[str]],
    seat: int,
    in_hand: int,
    final_match: bool,
) -> bool:
    """Whether `seat` has any legal move in the play phase (cheaper than listing them)."""
    if in_hand > 0 and any(sq not in pieces for sq in GREY_SQUARES):
        return True
    if move_destinations(cards, pieces, stacks, seat, final_match):
        return True
    return bool(swap_destinations(cards, pieces, stacks, seat, final_match))


def first_blocker(pieces: Pieces, origin: str, target: str) -> str | None:
    """The first piece strictly between origin and target on their queen line, or None."""
    for ray in RAYS[origin]:
        if target in ray:
            for square in ray[: ray.index(target)]:
                if square in pieces:
                    return square
            return None
    return None


def on_queen_line(origin: str, target: str) -> bool:
    return any(target in ray for ray in RAYS.get(origin, ()))


def why_not(
    cards: Mapping[str, str],
    pieces: Pieces,
    stacks: Mapping[str, list[str]],
    origin: str,
    target: str,
) -> str | None:
    """Why the piece on `origin` may not move to `target`, in a player's words; None if it may.

    The Final Match limit is checked by the caller. Must agree with piece_destinations()."""
    if target not in KIND:
        return _("{square} is not a square of the board.", square=target)
    if target == origin:
        return _("A piece must move to another square.")
    kind = KIND[target]
    from_grey = KIND[origin] == GREY
    if kind == GREY:
        if from_grey:
            return _("A piece on a grey square cannot move to another grey square: it must enter the play area.")
        return _("A piece in the play area can never move back out to the grey squares.")
    if kind == HOLE:
        return _("{square} is a hole: a move may cross it, but nothing can stand there.", square=target)
    if not on_queen_line(origin, target):
        return _("Pieces move like chess queens: in a straight line along a row, a column or a diagonal.")
    blocker = first_blocker(pieces, origin, target)
    if blocker is not None:
        return _(
            "The way from {origin} to {target} is blocked by the piece on {blocker}.",
            origin=origin,
            target=target,
            blocker=blocker,
        )
    owner = pieces[origin]["owner"]
    piece = pieces.get(target)
    if piece is not None:
        if piece["owner"] == owner:
            return _("You cannot land on your own piece.")
        if from_grey:
            return _("A piece cannot capture on the turn it enters the play area.")
        return None
    card = cards[target]
    stack = stacks[suit_of(card)]
    if stack and not fits(card, stacks):
        return _(
            "That square's card does not outrank your top {suit} ({card}).",
            suit=_(SUIT_SINGULAR[suit_of(card)]),
            card=stack[-1],
        )
    return None


def attacked_squares(pieces: Pieces, seat: int) -> set[str]:
    """Squares holding `seat`'s pieces that the other player could capture on their next move."""
    attacked = set()
    for square, piece in pieces.items():
        if piece["owner"] == seat or KIND[square] != PLAY:
            continue  # only enemy pieces in the play area capture
        for ray in RAYS[square]:
            for target in ray:
                hit = pieces.get(target)
                if hit is not None:
                    if hit["owner"] == seat and KIND[target] == PLAY:
                        attacked.add(target)
                    break
    return attacked
