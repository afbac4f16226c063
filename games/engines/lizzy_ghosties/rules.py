"""Pure rules of Lizzy Ghosties, shared by the engine and its bots: card-level rules, the pending
decision's legal moves and why a move is refused. Nothing here changes a state (the game flow, which
does, is the engine's, engine.py).

A Lizzy (a player's, the Burn Lizzy or a ghost's loaned Lizzy) is a dict of three stacks,
{"head": [...], "body": [...], "tail": [...]}, each a list of card names, bottom first, top last.
Only the top cards count for validity (ruling LZ-2, LG-3) and only they are visible (LG-2).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import Any

from games.engines.base import Move, State
from games.engines.dizzy_cards import PARTS, LizzyInfo, classify, part_of
from games.engines.lizzy_ghosties.phrases import PART_WORDS
from games.engines.words import Msg, _

Stacks = dict[str, list[str]]
Tops = list[str | None]

SHOWDOWN_TEAM_TURNS = 200  # ruling LG-8
MAX_CYCLES = 40  # ruling LG-10: cycles before the showdown
QUIET_CYCLES = 2  # ruling LG-10: consecutive cycles with no card moved
BURN = "burn"  # names the Burn Lizzy as a card source in a showdown ghost double (ruling LG-8)

# The phases of a game, in order.
OPENING = "opening"
TRANSITION = "transition"
SHOWDOWN = "showdown"
OVER = "over"

LIZZY_TURN = "lizzy"
GHOST_TURN = "ghost"
SHOWDOWN_LIZZIES = "showdown_lizzies"

SKIP: Move = {"type": "skip"}
MOVE_FIELDS = {
    "skip": {"type"},
    "steal": {"type", "from", "part"},
    "burn": {"type", "from", "part"},
    "give": {"type", "to", "part"},
    "ghost_steal": {"type", "from", "part"},
    "ghost_double": {"type", "head", "body", "tail"},
    "move": {"type", "from", "to", "part"},
    "take_burn": {"type", "to", "part"},
}


def cards_per_part(players: int) -> int:
    """Cards of each part dealt to each player: two above five players (ruling LG-1)."""
    return 2 if players > 5 else 3


@cache
def info_of_cards(head: str, body: str, tail: str) -> LizzyInfo:
    """classify() of LZ-2, cached: bots and legal-move lists ask about the same triples often."""
    return classify((head, body, tail))


def colour(card: str) -> str:
    return card.split("-")[1]


def tops(stacks: Stacks) -> Tops:
    return [stacks[part][-1] if stacks[part] else None for part in PARTS]


def info_of_tops(top_cards: Tops) -> LizzyInfo | None:
    """The Lizzy's classification, or None while a stack is empty (an incomplete Lizzy, LG-3)."""
    if None in top_cards:
        return None
    head, body, tail = top_cards
    return info_of_cards(head, body, tail)  # type: ignore[arg-type]


def info_of(stacks: Stacks) -> LizzyInfo | None:
    return info_of_tops(tops(stacks))


def info_with(top_cards: Tops, card: str) -> LizzyInfo | None:
    """The classification the Lizzy would have with `card` put on the stack of its part."""
    changed = list(top_cards)
    changed[PARTS.index(part_of(card))] = card
    return info_of_tops(changed)


def can_receive(top_cards: Tops, card: str) -> bool:
    """Ruling LG-3: a card may go on a Lizzy only when that Lizzy is valid afterwards. An
    incomplete Lizzy therefore accepts only the card that completes it as a valid Lizzy."""
    info = info_with(top_cards, card)
    return info is not None and info.valid


def parts_held(stacks: Stacks) -> int:
    """How many of the three stacks hold cards; a Lizzy with fewer than two is a ghost (LG-6)."""
    return sum(1 for part in PARTS if stacks[part])


def card_count(stacks: Stacks) -> int:
    return sum(len(stacks[part]) for part in PARTS)


def event_won_by_card(top_cards: Tops, drawn: str) -> bool:
    """Ruling LG-5 / LG-7: the drawn card's colour equals the colour of the Lizzy's card of the
    same part. For a same-colours double this is "the Lizzy's colour", so one test serves all."""
    own = top_cards[PARTS.index(part_of(drawn))]
    return own is not None and colour(own) == colour(drawn)


def event_won_by_dice(same_colours: bool, dice: list[str]) -> bool:
    """Ruling LG-11: a same-colours event needs all-same colours or patterns on the dice; a
    different-colours event needs all-different colours or patterns."""
    thrown = info_of_cards(dice[0], dice[1], dice[2])
    wanted = "same" if same_colours else "different"
    return thrown.colours == wanted or thrown.patterns == wanted


# --- the pending decision's moves -------------------------------------------------------------


def living_seats(state: State) -> list[int]:
    return [seat for seat, stacks in enumerate(state["lizzies"]) if stacks is not None]


def living_from(state: State, start: int, exclude: int) -> list[int]:
    """Living Lizzies clockwise beginning at `start`, without `exclude`."""
    players = state["players"]
    seats = ((start + offset) % players for offset in range(players))
    return [seat for seat in seats if seat != exclude and state["lizzies"][seat] is not None]


def cards_of(state: State, seat: int) -> int:
    stacks = state["lizzies"][seat]
    return len(state["piles"][seat]) + (0 if stacks is None else card_count(stacks))


def source_stacks(state: State, source: int | str) -> Stacks:
    """A card source: a Lizzy's seat, or BURN for the Burn Lizzy (LG-8)."""
    return state["burn"] if source == BURN else state["lizzies"][source]


def grabs(state: State, victims: list[int], receiver: Stacks, kind: str) -> list[Move]:
    """Top cards of the victims that the receiving Lizzy may take (LG-3)."""
    receiver_tops = tops(receiver)
    moves = []
    for victim in victims:
        stacks = state["lizzies"][victim]
        for part in PARTS:
            if stacks[part] and can_receive(receiver_tops, stacks[part][-1]):
                moves.append({"type": kind, "from": victim, "part": part})
    return moves


def decision_moves(state: State) -> list[Move]:
    """Every legal move of the seat to act (skip included where it is allowed)."""
    step = state["step"]
    seat = step["seat"]
    event = step["event"]
    lizzies = state["lizzies"]
    if event is not None:
        if event["won"]:
            victims = event["targets"][:1]
        else:
            victims = living_from(state, seat + 1, exclude=seat)  # one card of choice
        if event["kind"] == "burn":
            receiver, kind = state["burn"], "burn"
        elif event["kind"] == "ghost":
            receiver, kind = state["loaned"], "steal"
        else:
            receiver, kind = lizzies[seat], "steal"
        return grabs(state, victims, receiver, kind) + [dict(SKIP)]
    if step["kind"] == LIZZY_TURN:
        opponent = step["opponent"]
        moves = grabs(state, [opponent], lizzies[seat], "steal")
        opponent_tops = tops(lizzies[opponent])
        for part in PARTS:
            own = lizzies[seat][part]
            if own and can_receive(opponent_tops, own[-1]):
                moves.append({"type": "give", "to": opponent, "part": part})
        return moves + [dict(SKIP)]
    if step["kind"] == GHOST_TURN:
        living = living_from(state, seat + 1, exclude=seat)
        moves = ghost_doubles(state, living)
        for victim in living:
            for part in PARTS:
                if lizzies[victim][part]:
                    moves.append({"type": "ghost_steal", "from": victim, "part": part})
        return moves
    # Team Lizzies in the showdown (LG-8): move a top card between the two, or take a Burn top.
    pair = state["showdown"]["lizzies"]
    moves = []
    for receiver in pair:
        receiver_tops = tops(lizzies[receiver])
        giver = pair[1] if receiver == pair[0] else pair[0]
        for part in PARTS:
            if lizzies[giver][part] and can_receive(receiver_tops, lizzies[giver][part][-1]):
                moves.append({"type": "move", "from": giver, "to": receiver, "part": part})
        for part in PARTS:
            if state["burn"][part] and can_receive(receiver_tops, state["burn"][part][-1]):
                moves.append({"type": "take_burn", "to": receiver, "part": part})
    return moves


def ghost_doubles(state: State, living: list[int]) -> list[Move]:
    """LG-7: one top card from each of three different living Lizzies forming a double; in the
    showdown (LG-8) one from each of the two Lizzies and one from the Burn Lizzy."""
    if state["phase"] == SHOWDOWN:
        sources: list[Any] = living + [BURN]
    elif len(living) >= 3:
        sources = living
    else:
        return []  # LG-7: with fewer than three living Lizzies only the single steal exists

    def top(source: Any, part: str) -> str | None:
        stacks = source_stacks(state, source)
        return stacks[part][-1] if stacks[part] else None

    moves = []
    for head, body, tail in permutations(sources, 3):
        cards = (top(head, "head"), top(body, "body"), top(tail, "tail"))
        if None not in cards and info_of_cards(*cards).double:
            moves.append({"type": "ghost_double", "head": head, "body": body, "tail": tail})
    return moves


def move_effect(state: State, move: Move) -> str:
    """What a legal move sets off besides moving its card, for the board to say: "event" when it leaves
    a double on the Lizzy that receives the card (LG-5, LG-7; a ghost double always does), "extra_turn"
    when a showdown move makes a new double (LG-8, never two extra turns in a row), "turn_ends" for a
    ghost's single steal (LG-7), "" otherwise (skips and gives set off nothing)."""
    kind = move["type"]
    if kind in ("ghost_steal", "ghost_double"):
        return "turn_ends" if kind == "ghost_steal" else "event"
    if kind in ("skip", "give"):
        return ""
    if kind in ("move", "take_burn"):
        if state["showdown"]["extra_turn"]:
            return ""
        receiver, effect = state["lizzies"][move["to"]], "extra_turn"
    else:
        receiver, effect = receiving_stacks(state), "event"
    card = source_stacks(state, move.get("from", BURN))[move["part"]][-1]
    found = info_with(tops(receiver), card)
    return effect if found is not None and found.double else ""


def receiving_stacks(state: State) -> Stacks:
    """The Lizzy a steal or a burn puts its card on: the Burn Lizzy, a loaned Lizzy or one's own."""
    step = state["step"]
    event = step["event"]
    if event is not None and event["kind"] == "burn":
        return state["burn"]
    if event is not None and event["kind"] == "ghost":
        return state["loaned"]
    return state["lizzies"][step["seat"]]


def plain_ints(move: Move) -> bool:
    """Seats must be ints, not bools (True == 1 in Python, which would slip through `in`)."""
    return not any(isinstance(value, bool) for value in move.values())


# --- why a move is refused -----------------------------------------------------------------------


def why_illegal(state: State, move: Move) -> Msg:
    step = state["step"]
    seat = step["seat"]
    event = step["event"]
    kind = move["type"]
    if event is not None:
        allowed = {"burn" if event["kind"] == "burn" else "steal", "skip"}
        doing = _("an event: take the event's card or skip")
    elif step["kind"] == LIZZY_TURN:
        allowed = {"steal", "give", "skip"}
        doing = _("passing another Lizzy: steal from it, give to it or skip it")
    elif step["kind"] == GHOST_TURN:
        allowed = {"ghost_steal", "ghost_double"}
        doing = _("a ghost's turn: steal one card or grab a double")
    else:
        allowed = {"move", "take_burn"}
        doing = _("the showdown: move a card between your team's Lizzies or take a Burn Lizzy card")
    if kind not in allowed:
        return _("You cannot {kind} now: you are in {doing}.", kind=kind, doing=doing)
    if set(move) != MOVE_FIELDS[kind]:
        return _(
            "A {kind} move has exactly the fields {fields}.", kind=kind, fields=", ".join(sorted(MOVE_FIELDS[kind]))
        )
    if kind == "ghost_double":
        return why_ghost_double_illegal(state, move)
    part = move.get("part")
    if part not in PARTS:
        return _("Name a part: head, body or tail.")
    other = move.get("to" if kind in ("give", "take_burn") else "from")
    if not isinstance(other, int) or isinstance(other, bool) or not 0 <= other < state["players"]:
        return _("There is no such player.")
    if state["lizzies"][other] is None:
        return _("That player is a ghost: only living Lizzies hold cards.")
    if kind == "move" and (move.get("to") not in state["showdown"]["lizzies"] or move.get("to") == other):
        return _("Cards move only from one Lizzy of your team to the other.")
    if other == seat and kind in ("steal", "burn", "give", "ghost_steal"):
        return _("You cannot take from or give to your own Lizzy.")
    if event is None and step["kind"] == LIZZY_TURN and other != step["opponent"]:
        return _("You can only steal from or give to the Lizzy you are passing now.")
    if event is not None and event["won"] and event["targets"] and other != event["targets"][0]:
        return _("This attempt is on another Lizzy: take one of its cards or skip.")
    if kind == "take_burn":
        source = state["burn"]
    else:
        source = state["lizzies"][seat if kind == "give" else other]
    if not source[part]:
        return _("There is no {part} card to take there.", part=PART_WORDS[part])
    if kind == "burn":
        return _("The Burn Lizzy would not be valid with that card on top.")
    if kind in ("give", "move", "take_burn"):
        return _("The receiving Lizzy would not be valid with that card on top.")
    if step["kind"] == GHOST_TURN:
        return _("The loaned Lizzy would not be valid with that card on top.")
    return _("Your Lizzy would not be valid with that card on top.")


def why_ghost_double_illegal(state: State, move: Move) -> Msg:
    sources = [move.get(part) for part in PARTS]
    showdown = state["phase"] == SHOWDOWN
    living = living_seats(state)
    if not showdown and len(living) < 3:
        return _("A double needs three living Lizzies; with fewer you can only steal one card.")
    allowed = living + ([BURN] if showdown else [])
    if any(isinstance(source, bool) or source not in allowed for source in sources):
        return (
            _("Take each card from a living Lizzy or the Burn Lizzy.")
            if showdown
            else _("Take each card from a living Lizzy.")
        )
    if len(set(sources)) != 3:
        return _("Take the head, the body and the tail from three different places.")
    for part, source in zip(PARTS, sources):
        if not source_stacks(state, source)[part]:
            return _("There is no {part} card to take there.", part=PART_WORDS[part])
    return _("Those three cards do not form a double.")
