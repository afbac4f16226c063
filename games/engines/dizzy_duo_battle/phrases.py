"""Dizzy Lizzy cards, Lizzies and Dizzy Duos in words (issue 19), for the engine's log and the board.

Each phrase is a `Msg` (games/engines/words.py): its English text, as it always read ("the golden red
dots head"), that keeps its template and values, so a Dutch reader gets Dutch. Dutch bends a colour
by the part it stands before and by the article ("een rood lijf", "het rode lijf", "de rode kop"), so
each colour and part has its own template, with the pattern as a value.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engines import dizzy_cards as cards
from games.engines.words import Msg, _, gettext_noop

COLOUR_WORDS = {"red": _("red"), "blue": _("blue"), "purple": _("purple")}
PATTERN_WORDS = {"dots": _("dots"), "stripes": _("stripes"), "diamonds": _("diamonds")}

# A card's words under its picture: "red dots head" (the picture says "golden" beside them).
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
# The bonuses of a Dizzy Duo as games.engines.dizzy_cards names them (ruling DD-4).
BONUS_WORDS = {
    "identical colours": _("identical colours"),
    "identical patterns": _("identical patterns"),
    "both colours same": _("both colours same"),
    "both colours different": _("both colours different"),
    "both patterns same": _("both patterns same"),
    "both patterns different": _("both patterns different"),
    "Special Dizzy Duo": _("Special Dizzy Duo"),
}


# A card's phrases are made once each (the log names a card at every take and discard).
@cache
def card_words(name: str) -> Msg:
    """A card's words without its gold: "red dots head"."""
    card = cards.parse(name)
    return _(CARD[card.colour, card.part], pattern=PATTERN_WORDS[card.pattern])


@cache
def card_name(name: str) -> Msg:
    """A card's words with its gold: "golden red dots head" (dizzy_cards.describe)."""
    words = card_words(name)
    return _("golden {card}", card=words) if cards.parse(name).golden else words


@cache
def the_card(name: str) -> Msg:
    """A card in a sentence: "the golden red dots head"."""
    card = cards.parse(name)
    templates = THE_GOLDEN_CARD if card.golden else THE_CARD
    return _(templates[card.colour, card.part], pattern=PATTERN_WORDS[card.pattern])


def lizzy_summary(lizzy: list[str]) -> Msg:
    """What a Lizzy meets, as dizzy_cards.lizzy_summary says it: "all blue, patterns all different"."""
    first = cards.parse(lizzy[0])
    info = cards.classify(lizzy)
    bits = []
    if info.colours == "same":
        bits.append(_("all {colour}", colour=COLOUR_WORDS[first.colour]))
    elif info.colours == "different":
        bits.append(_("colours all different"))
    if info.patterns == "same":
        bits.append(_("all {pattern}", pattern=PATTERN_WORDS[first.pattern]))
    elif info.patterns == "different":
        bits.append(_("patterns all different"))
    if not bits:
        return _("not a valid Lizzy")
    summary = listed(bits)
    return _("golden: {summary}", summary=summary) if info.golden else summary


def bonus_words(label: str) -> str:
    return BONUS_WORDS.get(label, label)


def breakdown(arrangement: dict[str, Any]) -> Msg | str:
    """How a Dizzy Duo's power adds up, as Arrangement.breakdown says it: "1 + 2 + 2 (identical
    colours) = 5"; "3" for one Lizzy; "0" for none."""
    terms: list[Any] = [str(lizzy["power"]) for lizzy in arrangement["lizzies"]]
    terms += [
        _("{points} ({bonus})", points=bonus["points"], bonus=bonus_words(bonus["label"]))
        for bonus in arrangement["bonuses"]
    ]
    if not terms:
        return "0"
    if len(terms) == 1:
        return terms[0]
    return joined(terms, " + ", suffix=f" = {arrangement['power']}")


def listed(parts: list[Any]) -> Msg:
    """Words one after another, with commas: "Ann, you, Cat"."""
    return joined(parts, ", ")


def joined(parts: list[Any], separator: str, suffix: str = "") -> Msg:
    """Parts (Msgs translated each) put together with signs that every language writes the same. Its
    template holds only placeholders and those signs, so it needs no catalogue entry: a catalogue
    that lacks a template gives the template back."""
    names = [f"t{index}" for index in range(len(parts))]
    template = separator.join("{" + name + "}" for name in names) + suffix.replace("{", "{{").replace("}", "}}")
    return Msg(template, **dict(zip(names, parts)))
