"""Solitaire Chess's words shared by its engine, its rules and its board: the cards' ranks and
suits as Msgs (games/engines/words.py) that the site shows in the reader's language.
"""

from __future__ import annotations

from games.engines.words import Msg, _, gettext_noop

RANK_WORDS = {"A": _("ace"), "J": _("jack"), "Q": _("queen"), "K": _("king")}
SUIT_WORDS = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}
SUIT_SINGULAR = {
    "C": gettext_noop("club"),
    "D": gettext_noop("diamond"),
    "H": gettext_noop("heart"),
    "S": gettext_noop("spade"),
}


def the_card(card: str) -> Msg:
    """A card in a sentence: "the queen of hearts" (cards are rank + suit letter, "QH", "10S")."""
    return _("the {rank} of {suit}", rank=RANK_WORDS.get(card[:-1], card[:-1]), suit=SUIT_WORDS[card[-1]])
