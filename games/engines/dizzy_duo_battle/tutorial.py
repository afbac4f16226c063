"""The Dizzy Duo Battle tutorial (games/engines/tutorial.py): a round of seed 000 on the real board.

The learner is the first seat; the deal is fixed (PATCH): a hand one card short of a strong Dizzy
Duo, the card it needs on the open pile, and a Tutor with a weak hand. The blind pile's top cards are
the rest of the deck in its own order: the steps name them only as the learner draws them.
"""

from __future__ import annotations

from collections import Counter

from games.engines import dizzy_cards as cards
from games.engines.tutorial import Lesson, Step, Tutorial
from games.engines.words import _

LEARNER = [
    "head-blue-dots",
    "body-blue-dots",
    "tail-blue-dots",
    "head-purple-dots",
    "body-purple-dots",
    "tail-red-stripes",
]
TUTOR = [
    "head-red-diamonds",
    "body-red-stripes",
    "tail-red-dots",
    "head-blue-diamonds",
    "body-purple-diamonds",
    "tail-blue-stripes",
]
OPEN = ["tail-purple-dots"]
START = Counter(LEARNER + TUTOR + OPEN)
# The blind pile: every other card, its top (the list's end) drawn first.
BLIND = list((Counter(cards.DECK) - START).elements())
PATCH = {
    "hands": [cards.sort_cards(LEARNER), cards.sort_cards(TUTOR)],
    "open": OPEN,
    "blind": BLIND,
    "current": 0,
    "round_starter": 0,
    "phase": "take",
}


def take(pile: str) -> dict:
    return {"type": "take", "from": pile}


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


# The Tutor's turns: it draws from the blind pile and throws the card away.
def tutor_turn(card: str) -> tuple[dict, dict]:
    return take("blind"), discard(card)


ROUND = (
    Step(
        say=_(
            "Every card is a head, a body or a tail, in one of three colours (red, blue, purple) and one of three "
            "patterns (dots, stripes, diamonds); a few are golden. A Lizzy is a head, a body and a tail whose "
            "colours are all the same or all different, or whose patterns are. Your hand: a blue dotted Lizzy, "
            "and a purple dotted head and body."
        ),
    ),
    Step(
        say=_(
            "A turn: take the top card of the open pile or of the blind pile, then put one card on the open pile. "
            "The open pile shows a purple dots tail, just what you need: take it."
        ),
        move=take("open"),
        then=_("The purple tail joins your hand: now you hold seven cards until you discard."),
    ),
    Step(
        say=_("Put back the card you do not need: the red stripes tail."),
        move=discard("tail-red-stripes"),
        replies=tutor_turn("tail-purple-diamonds"),
        then=_("Two Lizzies: a Dizzy Duo. The board tells its power: see how it is counted beside your hand."),
    ),
    Step(
        say=_(
            "Power: a Lizzy with one condition is 1; one colour and one pattern condition of mixed kinds is 2; "
            "two of the same kind (all blue and all dots) is 3; three golden cards is 5. Both Lizzies meeting the "
            "same colour or pattern condition add a bonus: +1, or +2 when identical in order, +10 for two golden "
            "Lizzies. Nobody may attack before every player has had three turns. Take the top blind card."
        ),
        move=take("blind"),
    ),
    Step(
        say=_("You drew a golden purple diamonds tail. Your duo is stronger as it is: discard the tail you drew."),
        move=discard("tail-purple-diamonds-gold"),
        replies=tutor_turn("tail-purple-stripes"),
        then=_("You may discard the very card you took."),
    ),
    Step(say=_("One more turn each: take the top blind card."), move=take("blind")),
    Step(
        say=_("Discard the purple stripes tail you drew."),
        move=discard("tail-purple-stripes"),
        replies=tutor_turn("tail-purple-dots"),
        then=_("Everyone has had three turns: attacks are allowed now."),
    ),
    Step(
        say=_(
            "Attack instead of a turn: the top blind card goes on the open pile, and you fight every other player "
            "in turn. Each shows their best duo; the stronger gains as many lives as the weaker's power, the "
            "weaker loses as many as the stronger's. Attack!"
        ),
        move={"type": "attack"},
        then=_("You won the fight: your 9 against the Tutor's 2. The cards are dealt again for the next round."),
    ),
    Step(
        say=_(
            "A round ends with an attack; the next starts with the player after the attacker. Your tenth turn "
            "in a round must be an attack, ready or not. A player with no lives left is out, and the last "
            "player with lives wins. Match options add the alternative rules: a lifeline, points instead of "
            "lives, open battles, and the main attack (attacking by discarding a head card)."
        ),
    ),
)

TUTORIAL = Tutorial(
    picture=1,
    # The rules page's pictures: the dealt Lizzies, a Dizzy Duo with its power, the battle of an attack.
    pictures={"lizzies": 0, "duo": 3, "battle": 8},
    players=2,
    seat=0,
    minutes=4,
    goal=_(
        "The goal: build the strongest Dizzy Duo, two Lizzies that help each other, attack when yours is "
        "stronger, and take every other player's lives."
    ),
    lessons=(Lesson(title=_("A round of Dizzy Duo Battle"), seed=7, patch=PATCH, steps=ROUND),),
)
