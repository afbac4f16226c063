"""Dizzy Lizzy card art shared by the Dizzy games' presenters: a card name -> what the card macro draws.

`jinja2_templates/games/_lizzy_card.html` draws one card from a `LizzyCard`; the styles are in the
site's stylesheet (both Dizzy games use them). Nothing here reads a state: a presenter passes in only
card names its viewer may see.

Every card carries three signs besides its colour, so that it reads without colour vision: the part's
silhouette (head, body, tail), the pattern filling it (dots, stripes, diamonds) and a label in words.
Golden cards add a gold ground, a double border, a star and the word "golden".
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.dizzy_cards import describe, parse

# The drawing area of a card is a 100 x 80 viewBox. A Lizzy is laid out head, body, tail from left
# to right, so the head looks left and the neck, body and tail meet the card edges at mid height.
SHAPES: dict[str, str] = {
    # A rounded head with a long snout to the left and the neck on the right edge.
    "head": ("M97 30 C86 20 70 14 52 15 C34 16 16 24 7 38 C3 45 5 53 12 56 C26 62 46 60 62 62 C74 64 86 62 97 54 Z"),
    # A plump body, side view, with a front and a back leg (each a bent leg with a foot).
    "body": (
        "M3 30 C20 18 80 18 97 30 L97 52 C88 58 80 60 74 60 L80 72 L90 74 L90 78 L72 78 L64 61 "
        "C50 63 42 63 36 61 L28 78 L10 78 L10 74 L20 72 L25 59 C15 57 8 55 3 52 Z"
    ),
    # A tail tapering to the right and curling up into a spiral tip.
    "tail": (
        "M3 26 C28 26 50 32 66 30 C82 28 92 20 88 10 C84 1 68 2 68 13 C68 21 78 23 80 16 "
        "C88 26 86 40 74 48 C58 58 30 58 3 56 Z"
    ),
}

# Fills of clearly different lightness (red light, blue middle, purple dark), so the three colours
# stay apart in grey too; the marks of the pattern are white on top.
FILLS: dict[str, str] = {"red": "#e8584b", "blue": "#1d55b0", "purple": "#4b1a6e"}


@dataclass(frozen=True)
class LizzyCard:
    uid: str  # unique in the page: names the card's own SVG pattern
    label: str  # everything the picture shows, in words ("golden purple diamonds tail")
    back: bool = False  # face down: shows nothing of the card
    name: str = ""
    part: str = ""
    colour: str = ""
    pattern: str = ""
    golden: bool = False
    words: str = ""  # the label without "golden"

    @property
    def fill(self) -> str:
        return FILLS[self.colour]

    @property
    def shape(self) -> str:
        return SHAPES[self.part]


class CardArt:
    """Numbers the cards of one board: every drawn card gets its own pattern id (lz1, lz2, ...).

    Card ids must not be shared: a pattern defined inside a closed <details> or a hidden element
    does not paint, so a card that borrowed it would come out blank."""

    def __init__(self, prefix: str = "lz") -> None:
        self.prefix = prefix
        self.count = 0

    def _uid(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"

    def card(self, name: str) -> LizzyCard:
        card = parse(name)
        return LizzyCard(
            uid=self._uid(),
            label=describe(name),
            name=name,
            part=card.part,
            colour=card.colour,
            pattern=card.pattern,
            golden=card.golden,
            words=f"{card.colour} {card.pattern} {card.part}",
        )

    def cards(self, names: list[str]) -> list[LizzyCard]:
        return [self.card(name) for name in names]

    def back(self, label: str = "a face-down card") -> LizzyCard:
        return LizzyCard(uid=self._uid(), label=label, back=True)
