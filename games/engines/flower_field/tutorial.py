"""The Doubting Flower Field tutorial (games/engines/tutorial.py): every rule of seed 003 on the real board.

One game from the start: the learner is the first seat and has the advantage. The scripted
opponent's hidden flowers are red E5 and yellow B6; the steps reveal E5 only when it explodes.
Then a second game near its end, reached by real plantings, for the full field (ruling FF-8).
"""

from __future__ import annotations

from games.engines.flower_field.rules import CENTRE, COLUMNS, LETTER_COLOUR, SIZE
from games.engines.tutorial import Lesson, Step, Tutorial
from games.engines.words import _


def plant(*flowers: tuple[str, str]) -> dict:
    return {"type": "plant", "flowers": _in_board_order(flowers)}


def hide(*flowers: tuple[str, str]) -> dict:
    return {"type": "hide", "flowers": _in_board_order(flowers)}


def _in_board_order(flowers: tuple[tuple[str, str], ...]) -> list[dict]:
    """The flowers as the board's buttons write them: by cell, whatever order they were picked in."""
    return [{"cell": cell, "colour": colour} for cell, colour in sorted(flowers)]


def challenge(a: list[str], b: list[str]) -> dict:
    return {"type": "challenge", "a": a, "b": b}


def challenge_clicks(a: list[str], b: list[str]) -> tuple[str, ...]:
    """The board's selections on the way to a challenge: start it, field A cell by cell (its fourth
    cell moves on to field B), then B."""
    first = tuple(f"ca:{''.join(a[:n])}:" for n in range(len(a)))
    second = tuple(f"cb:{''.join(a)}:{''.join(b[:n])}" for n in range(len(b) + 1))
    return first + second


def plant_clicks(first: str, colour: str, second: str) -> tuple[str, ...]:
    """Two flowers: the first cell, its colour, the second cell (its colour is the button)."""
    return (f"p:{first}", f"p:{first}{colour[0]}", f"p:{first}{colour[0]}{second}")


GAME = (
    Step(
        say=_(
            "The field is 7 by 7, with a yellow flower in the middle (D4). You have the advantage: choose to go first."
        ),
        move={"type": "order", "go": "first"},
    ),
    Step(
        say=_(
            "Before the first turn each player hides two flowers, anywhere but D4. Nobody else sees them. "
            "Hide a red flower on B2 and a blue one on F3: pick a cell, then its colour."
        ),
        move=hide(("B2", "red"), ("F3", "blue")),
        look=("h:B2", "h:B2r", "h:B2rF3"),
        replies=(hide(("E5", "red"), ("B6", "yellow")),),
        then=_("The Tutor hid two flowers too. You cannot see them, and the Tutor cannot see yours."),
    ),
    Step(
        say=_(
            "A turn plants one or two flowers, in any colours, each next to (not diagonally) a flower that was "
            "already on the field. Plant a blue flower on C4, left of the middle."
        ),
        move=plant(("C4", "blue")),
        look=("p:C4",),
        replies=(plant(("E4", "blue")),),
        then=_("The Tutor planted blue on E4."),
    ),
    Step(
        say=_(
            "Now plant two at once: yellow on B4 and red on C5. Both touch flowers that were there before this turn."
        ),
        move=plant(("B4", "yellow"), ("C5", "red")),
        look=plant_clicks("B4", "yellow", "C5"),
        replies=(plant(("F4", "yellow")),),
        then=_("The Tutor planted yellow on F4. Look at row 4: yellow, blue, yellow, blue, yellow."),
    ),
    Step(
        say=_(
            "A flower field is four flowers joined side by side. Two fields that are equal, turned or flipped, "
            "in shape and colours, must never be on the field at once. B4 to E4 and C4 to F4 are equal (one "
            "is the other flipped), and F4 was just planted: challenge them. Select field A, then field B."
        ),
        move=challenge(["B4", "C4", "D4", "E4"], ["C4", "D4", "E4", "F4"]),
        look=challenge_clicks(["B4", "C4", "D4", "E4"], ["C4", "D4", "E4", "F4"]),
        replies=(plant(("E3", "red")),),
        then=_(
            "Successful: the Tutor lost a life, its planting was undone and it planted again (red E3). A "
            "failed challenge costs the challenger a life instead; giving up counts as failed. A challenge "
            "must use a flower of the other player's last turn."
        ),
    ),
    Step(
        say=_(
            "Planting on a hidden flower, anyone's, makes it explode: the new flower stays, and the planter "
            "loses a life. Plant red on E5 and blue on D5 (the Tutor hid a flower on E5: watch)."
        ),
        move=plant(("E5", "red"), ("D5", "blue")),
        look=plant_clicks("E5", "red", "D5"),
        replies=(plant(("F4", "yellow")),),
        then=_("It exploded: you lost a life. Everyone is told where, never whose or which colour."),
    ),
    Step(
        say=_(
            "Your hidden flowers count in your challenges: the empty cell you name is claimed as your hidden "
            "flower, and such a challenge is always announced successful. Your blue F3 makes E3, F3, F4, E4 "
            "equal to C4, D4, D5, C5: challenge those two, naming the empty F3."
        ),
        move=challenge(["E3", "F3", "F4", "E4"], ["C4", "D4", "D5", "C5"]),
        look=challenge_clicks(["E3", "F3", "F4", "E4"], ["C4", "D4", "D5", "C5"]),
        replies=({"type": "challenge_challenge"}, plant(("B5", "yellow"))),
        then=_(
            "The Tutor doubted you and challenged the challenge. It failed, because your claim was true: the "
            "Tutor lost another life and planted again (yellow B5)."
        ),
    ),
    Step(
        say=_("Plant yellow on C3."),
        move=plant(("C3", "yellow")),
        look=("p:C3",),
        replies=(challenge(["C3", "C4", "C5", "C6"], ["B4", "C4", "D4", "E4"]),),
        then=_(
            "The Tutor challenged, naming the empty C6 as its hidden flower. That was announced successful, "
            "so you lost a life, but the two fields are not equal whatever C6 holds."
        ),
    ),
    Step(
        say=_(
            "Doubt it: challenge the challenge. If the claim was false you gain a life, the Tutor loses one, "
            "and your planting comes back; if it was true, you lose another life."
        ),
        move={"type": "challenge_challenge"},
        replies=(plant(("F5", "blue")),),
        then=_("Successful: you got your life back and the Tutor lost one. Only the outcome is told, never why."),
    ),
    Step(
        say=_(
            "The end: a player with no lives left loses, and so does one out of time. When the field is full, "
            "the player who did not plant last may challenge once more or pass; then more lives wins, and equal "
            "lives go to the one who planted last."
        ),
    ),
)

# The second game near its end, as the board draws it (row 7 first); "." is empty. Every hidden
# flower has exploded (C6 and F3 were the learner's, E5 and B6 the Tutor's; each player planted on
# two), so both have 3 lives. Blue on A7 and G7 is the one planting that makes no two equal fields
# through either corner (every other pair of colours does): the Tutor has nothing true to challenge
# at the end, and passes.
NEARLY_FULL = (
    ".BRRRY.",
    "BYBYBRB",
    "YYYYRRR",
    "YRYYYRY",
    "BYBRRBY",
    "YBYRBRY",
    "RRYRYBR",
)


def ring_by_ring(rows: tuple[str, ...]) -> tuple[dict, ...]:
    """Plantings that grow the field of `rows` from D4, two flowers a turn, nearest cells first. Each
    distance from D4 holds an even number of cells, so a turn never mixes two distances and every
    flower touches one planted a turn before (FF-3)."""

    def distance(cell: str) -> int:
        return abs(COLUMNS.index(cell[0]) - COLUMNS.index(CENTRE[0])) + abs(int(cell[1:]) - int(CENTRE[1:]))

    colours = {
        f"{COLUMNS[col]}{SIZE - row}": LETTER_COLOUR[letter]
        for row, text in enumerate(rows)
        for col, letter in enumerate(text)
        if letter != "."
    }
    cells = sorted((cell for cell in colours if cell != CENTRE), key=lambda cell: (distance(cell), cell))
    return tuple(plant(*((cell, colours[cell]) for cell in cells[n : n + 2])) for n in range(0, len(cells), 2))


# The learner goes second this time, so that the plantings above leave the last turn to them.
NEARLY_FULL_BEFORE = (
    {"type": "order", "go": "second"},
    hide(("C6", "red"), ("F3", "blue")),
    hide(("E5", "red"), ("B6", "yellow")),
    *ring_by_ring(NEARLY_FULL),
)

FULL_FIELD = (
    Step(
        say=_(
            "Another game, near its end: only the corners A7 and G7 are empty. Both of you have 3 lives left: "
            "each planted on two hidden flowers (the orange bursts)."
        ),
    ),
    Step(
        say=_(
            "Plant the last two flowers: blue on A7 and blue on G7 (any other colours there would make two "
            "equal fields). The field is then full, and the Tutor, who did not plant last, may challenge once "
            "more or pass."
        ),
        move=plant(("A7", "blue"), ("G7", "blue")),
        look=plant_clicks("A7", "blue", "G7"),
        replies=({"type": "pass"},),
        then=_(
            "The Tutor passed: no two equal fields hold your last flowers. A final challenge would change "
            "lives only, taking nothing off the field. The game is over: more lives wins, and equal lives go "
            "to the one who planted last. You have 3 lives each, and you planted last: you win."
        ),
    ),
)

TUTORIAL = Tutorial(
    picture=7,
    # The rules page's pictures: each rule's position, after the step's move that shows it.
    pictures={"hidden": 2, "planting": 3, "equal": 4, "challenge": 5, "explosion": 6, "doubt": 9, "full": 10},
    players=2,
    seat=0,
    minutes=5,
    goal=_(
        "The goal: keep your lives. Plant without making two equal flower fields, catch the other player's, "
        "and use your hidden flowers to bluff, or doubt theirs."
    ),
    lessons=(
        Lesson(title=_("A game of Doubting Flower Field"), seed=7, options={"advantage": "0"}, steps=GAME),
        Lesson(
            title=_("The full field"),
            seed=7,
            options={"advantage": "0"},
            before=NEARLY_FULL_BEFORE,
            steps=FULL_FIELD,
        ),
    ),
)
