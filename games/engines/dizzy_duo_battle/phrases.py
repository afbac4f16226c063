"""Lizzies and Dizzy Duos in words, for the engine's log and the board.

Each phrase is a `Msg` (games/engines/words.py): its English text, as it always read, that keeps its
template and values, so a Dutch reader gets Dutch. A single card's words are the Dizzy games' shared
ones (games/engines/dizzy_phrases.py: "the golden red dots head").
"""

from __future__ import annotations

from typing import Any

from games.engines import dizzy_cards as cards
from games.engines.dizzy_phrases import COLOUR_WORDS, PATTERN_WORDS
from games.engines.words import Msg, _

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
