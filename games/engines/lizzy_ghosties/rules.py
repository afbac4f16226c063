"""Card-level rules of Lizzy Ghosties, shared by the engine and its bots (no game flow here).

A Lizzy (a player's, the Burn Lizzy or a ghost's loaned Lizzy) is a dict of three stacks,
{"head": [...], "body": [...], "tail": [...]}, each a list of card names, bottom first, top last.
Only the top cards count for validity (ruling LZ-2, LG-3) and only they are visible (LG-2).
"""

from __future__ import annotations

from functools import cache

from games.engines.dizzy_cards import PARTS, LizzyInfo, classify, part_of

Stacks = dict[str, list[str]]
Tops = list[str | None]

SHOWDOWN_TEAM_TURNS = 200  # ruling LG-8
MAX_CYCLES = 40  # ruling LG-10: cycles before the showdown
QUIET_CYCLES = 2  # ruling LG-10: consecutive cycles with no card moved
BURN = "burn"  # names the Burn Lizzy as a card source in a showdown ghost double (ruling LG-8)


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
