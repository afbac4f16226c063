"""Words for flowers that the engine's log and the board share: the colours, a flower with
its cell, and lists of them, as Msgs (games.engines.words) that the site shows in the reader's language.

Dutch inflects a colour before a noun ("rood", but "een rode bloem"), so a colour on its own, a
colour at the start of a sentence and a flower of a colour are three words each.
"""

from __future__ import annotations

from typing import Any

from games.engines.words import Msg, _

COLOUR_WORDS = {"red": _("red"), "blue": _("blue"), "yellow": _("yellow")}
COLOUR_NAMES = {"red": _("Red"), "blue": _("Blue"), "yellow": _("Yellow")}  # a button's, a sentence's start
FLOWER_WORDS = {"red": _("red flower"), "blue": _("blue flower"), "yellow": _("yellow flower")}
# Translators: the letter drawn on a flower of each colour, so that colours can be told apart without
# seeing them (the rules page: R, B, G in Dutch).
LETTERS = {"red": _("R"), "blue": _("B"), "yellow": _("Y")}


def flower_words(flower: dict[str, Any]) -> str:
    """ "red C4": a flower's colour and cell."""
    return _("{colour} {cell}", colour=COLOUR_WORDS[flower["colour"]], cell=flower["cell"])


def flowers_words(flowers: list[dict[str, Any]]) -> str:
    """ "red C4 and blue D5": one flower, or two (a planting, a hiding)."""
    words = [flower_words(flower) for flower in flowers]
    if len(words) == 1:
        return words[0]
    return _("{first} and {second}", first=joined(words[:-1]), second=words[-1])


def joined(parts: list[str], separator: str = ", ") -> str:
    """The parts in a row, each read in the reader's language. The template between them is
    punctuation only, the same in every language, so it is no msgid: gettext gives it back as it is."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    template = separator.join(f"{{part{number}}}" for number in range(len(parts)))
    return Msg(template, **{f"part{number}": part for number, part in enumerate(parts)})
