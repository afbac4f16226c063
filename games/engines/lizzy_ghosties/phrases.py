"""Lizzy Ghosties' words shared by its engine and its board: Dizzy Lizzy cards, dice, parts and
events in words a viewer reads in their own language.

Each phrase is a `Msg` (games/engines/words.py): the English text it always was ("Ben's red dots head",
as dizzy_cards.describe says a card) that keeps its template and values, so a Dutch reader gets Dutch.
Dutch bends a colour by the part it stands before and by the article ("een rood lijf", "het rode lijf",
"de rode kop"), so every colour and part has a template of its own in each form, the pattern a value.
A card's words under its picture and with "the" are the Dizzy games' shared ones
(games/engines/dizzy_phrases.py): one card reads the same in both games.
"""

from __future__ import annotations

from games.engines.dizzy_cards import parse
from games.engines.dizzy_phrases import COLOUR_WORDS, PATTERN_WORDS
from games.engines.words import Msg, _, gettext_noop

PART_WORDS = {"head": _("head"), "body": _("body"), "tail": _("tail")}
BURN_LIZZYS = _("the Burn Lizzy's")  # an owner: "the Burn Lizzy's red dots head"
YOUR = _("your")  # an owner: "your red dots head"
EVENT_WORDS = {"steal": _("steal event"), "burn": _("burn event"), "ghost": _("ghost event")}

# "gave Ben a red dots head".
A_CARD = {
    ("red", "head"): gettext_noop("a red {pattern} head"),
    ("red", "body"): gettext_noop("a red {pattern} body"),
    ("red", "tail"): gettext_noop("a red {pattern} tail"),
    ("blue", "head"): gettext_noop("a blue {pattern} head"),
    ("blue", "body"): gettext_noop("a blue {pattern} body"),
    ("blue", "tail"): gettext_noop("a blue {pattern} tail"),
    ("purple", "head"): gettext_noop("a purple {pattern} head"),
    ("purple", "body"): gettext_noop("a purple {pattern} body"),
    ("purple", "tail"): gettext_noop("a purple {pattern} tail"),
}
A_GOLDEN_CARD = {
    ("red", "head"): gettext_noop("a golden red {pattern} head"),
    ("red", "body"): gettext_noop("a golden red {pattern} body"),
    ("red", "tail"): gettext_noop("a golden red {pattern} tail"),
    ("blue", "head"): gettext_noop("a golden blue {pattern} head"),
    ("blue", "body"): gettext_noop("a golden blue {pattern} body"),
    ("blue", "tail"): gettext_noop("a golden blue {pattern} tail"),
    ("purple", "head"): gettext_noop("a golden purple {pattern} head"),
    ("purple", "body"): gettext_noop("a golden purple {pattern} body"),
    ("purple", "tail"): gettext_noop("a golden purple {pattern} tail"),
}
# Whose card it is, {owner} being OWNER_WORDS's: "Ben's red dots head", "your red dots head".
OWNED_CARD = {
    ("red", "head"): gettext_noop("{owner} red {pattern} head"),
    ("red", "body"): gettext_noop("{owner} red {pattern} body"),
    ("red", "tail"): gettext_noop("{owner} red {pattern} tail"),
    ("blue", "head"): gettext_noop("{owner} blue {pattern} head"),
    ("blue", "body"): gettext_noop("{owner} blue {pattern} body"),
    ("blue", "tail"): gettext_noop("{owner} blue {pattern} tail"),
    ("purple", "head"): gettext_noop("{owner} purple {pattern} head"),
    ("purple", "body"): gettext_noop("{owner} purple {pattern} body"),
    ("purple", "tail"): gettext_noop("{owner} purple {pattern} tail"),
}
OWNED_GOLDEN_CARD = {
    ("red", "head"): gettext_noop("{owner} golden red {pattern} head"),
    ("red", "body"): gettext_noop("{owner} golden red {pattern} body"),
    ("red", "tail"): gettext_noop("{owner} golden red {pattern} tail"),
    ("blue", "head"): gettext_noop("{owner} golden blue {pattern} head"),
    ("blue", "body"): gettext_noop("{owner} golden blue {pattern} body"),
    ("blue", "tail"): gettext_noop("{owner} golden blue {pattern} tail"),
    ("purple", "head"): gettext_noop("{owner} golden purple {pattern} head"),
    ("purple", "body"): gettext_noop("{owner} golden purple {pattern} body"),
    ("purple", "tail"): gettext_noop("{owner} golden purple {pattern} tail"),
}


def owner(seat: int | str) -> Msg:
    """Whose card: "{player}'s", the player a seat placeholder ("{p2}") or a name."""
    return _("{player}'s", player=seat)


def a_card(card: str) -> Msg:
    """ "a golden red dots head"."""
    found = parse(card)
    templates = A_GOLDEN_CARD if found.golden else A_CARD
    return _(templates[found.colour, found.part], pattern=PATTERN_WORDS[found.pattern])


def owned_card(card: str, whose: Msg) -> Msg:
    """ "Ben's golden red dots head", `whose` being owner(), YOUR or BURN_LIZZYS."""
    found = parse(card)
    templates = OWNED_GOLDEN_CARD if found.golden else OWNED_CARD
    return _(templates[found.colour, found.part], owner=whose, pattern=PATTERN_WORDS[found.pattern])


def face_words(card: str) -> Msg:
    """A Dizzy Die's face (a card name read from a throw): "red dots"."""
    found = parse(card)
    return _("{colour} {pattern}", colour=COLOUR_WORDS[found.colour], pattern=PATTERN_WORDS[found.pattern])


def three(parts: list) -> Msg:
    """A head's, a body's and a tail's words with commas, each translated: "red dots, blue dots, red stripes"."""
    return Msg("{head}, {body}, {tail}", head=parts[0], body=parts[1], tail=parts[2])  # signs only


def listed(items: list) -> Msg | str:
    """Items with commas and "and" between them, each translated: "Ann, Ben and Cat"."""
    if len(items) <= 1:
        return "".join(items) if not items else items[0]
    text = items[0]
    for item in items[1:-1]:
        text = Msg("{first}, {next}", first=text, next=item)  # signs only: no catalogue entry needed
    return _("{first} and {last}", first=text, last=items[-1])
