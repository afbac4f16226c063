"""Dizzy Lizzy cards in words, shared by the games played with them (Dizzy Duo Battle and
Lizzy Ghosties), beside dizzy_cards.py, which names the cards. One card reads the same in every game.

Each phrase is a `Msg` (games/engines/words.py): its English text, as it always read ("the golden red
dots head", as dizzy_cards.describe says a card), that keeps its template and values, so a Dutch reader
gets Dutch. Dutch bends a colour by the part it stands before and by the article ("een rood lijf", "het
rode lijf", "de rode kop"), so each colour and part has its own template, with the pattern as a value.

The Dutch is in the engines' shared catalogue, under games/engines/locale/nl/ (makemessages sends the
words of the files in games/engines/ itself there); each game's own words stay in its package's catalogue.
"""

from __future__ import annotations

from functools import cache

from games.engines.dizzy_cards import parse
from games.engines.words import Msg, _, gettext_noop

COLOUR_WORDS = {"red": _("red"), "blue": _("blue"), "purple": _("purple")}
PATTERN_WORDS = {"dots": _("dots"), "stripes": _("stripes"), "diamonds": _("diamonds")}

# A card's words under its picture (the picture says "golden" itself): "red dots head".
CARD = {
    ("red", "head"): gettext_noop("red {pattern} head"),
    ("red", "body"): gettext_noop("red {pattern} body"),
    ("red", "tail"): gettext_noop("red {pattern} tail"),
    ("blue", "head"): gettext_noop("blue {pattern} head"),
    ("blue", "body"): gettext_noop("blue {pattern} body"),
    ("blue", "tail"): gettext_noop("blue {pattern} tail"),
    ("purple", "head"): gettext_noop("purple {pattern} head"),
    ("purple", "body"): gettext_noop("purple {pattern} body"),
    ("purple", "tail"): gettext_noop("purple {pattern} tail"),
}
# A card in a sentence: "took the red dots head".
THE_CARD = {
    ("red", "head"): gettext_noop("the red {pattern} head"),
    ("red", "body"): gettext_noop("the red {pattern} body"),
    ("red", "tail"): gettext_noop("the red {pattern} tail"),
    ("blue", "head"): gettext_noop("the blue {pattern} head"),
    ("blue", "body"): gettext_noop("the blue {pattern} body"),
    ("blue", "tail"): gettext_noop("the blue {pattern} tail"),
    ("purple", "head"): gettext_noop("the purple {pattern} head"),
    ("purple", "body"): gettext_noop("the purple {pattern} body"),
    ("purple", "tail"): gettext_noop("the purple {pattern} tail"),
}
THE_GOLDEN_CARD = {
    ("red", "head"): gettext_noop("the golden red {pattern} head"),
    ("red", "body"): gettext_noop("the golden red {pattern} body"),
    ("red", "tail"): gettext_noop("the golden red {pattern} tail"),
    ("blue", "head"): gettext_noop("the golden blue {pattern} head"),
    ("blue", "body"): gettext_noop("the golden blue {pattern} body"),
    ("blue", "tail"): gettext_noop("the golden blue {pattern} tail"),
    ("purple", "head"): gettext_noop("the golden purple {pattern} head"),
    ("purple", "body"): gettext_noop("the golden purple {pattern} body"),
    ("purple", "tail"): gettext_noop("the golden purple {pattern} tail"),
}


# A card's phrases are made once each (a log names a card at every take, discard and steal).
@cache
def card_words(name: str) -> Msg:
    """A card's words under its picture, without its gold: "red dots head"."""
    card = parse(name)
    return _(CARD[card.colour, card.part], pattern=PATTERN_WORDS[card.pattern])


@cache
def card_name(name: str) -> Msg:
    """A card with its gold, standing alone: "golden red dots head" (dizzy_cards.describe)."""
    words = card_words(name)
    return _("golden {card}", card=words) if parse(name).golden else words


@cache
def the_card(name: str) -> Msg:
    """A card in a sentence: "the golden red dots head"."""
    card = parse(name)
    templates = THE_GOLDEN_CARD if card.golden else THE_CARD
    return _(templates[card.colour, card.part], pattern=PATTERN_WORDS[card.pattern])
