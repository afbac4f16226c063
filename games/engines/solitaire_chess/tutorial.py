"""The Solitaire Chess tutorial (games/engines/tutorial.py): every rule of seed 004 on the real board.

The learner is the first seat and has the advantage; the deal is seed 7's.
"""

from __future__ import annotations

from games.engines.tutorial import Lesson, Step, Tutorial
from games.engines.words import _


def place(square: str) -> dict:
    return {"type": "place", "to": square}


def move(start: str, end: str) -> dict:
    return {"type": "move", "from": start, "to": end}


SETUP = (
    {"type": "order", "first": True},
    place("a3"),
    place("j5"),
    place("d0"),
    place("f8"),
    place("a6"),
    place("j2"),
    place("g0"),
    place("c8"),
    place("j6"),
    place("h8"),
)

# The Final Match lesson starts after these: three of the learner's queens in play.
FINAL_OPENING = (
    move("a3", "b3"),
    move("f8", "f7"),
    move("g0", "g3"),
    move("c8", "c7"),
    move("d0", "d2"),
    move("h8", "h7"),
)

DEATH = {"ruleset": "death", "advantage": "0"}
FINAL = {"ruleset": "final", "advantage": "0"}

TUTORIAL = Tutorial(
    picture=5,
    # The rules page's pictures: every queen placed, a first card on a stack, a capture, a swap.
    pictures={"placed": 2, "stack": 4, "capture": 6, "swap": 9},
    players=2,
    seat=0,
    minutes=4,
    goal=_(
        "The goal: collect the most cards in your four suit stacks. Each stack only grows upwards, so "
        "plan your runs, and capture the pieces that would take your cards."
    ),
    lessons=(
        Lesson(
            title=_("Choosing the order and placing the queens"),
            seed=7,
            options=DEATH,
            steps=(
                Step(
                    say=_(
                        "Every square of the yellow play area holds a playing card. You have the advantage, "
                        "so you choose: place and move first, or second. Choose to go first."
                    ),
                    move={"type": "order", "first": True},
                    then=_("You go first."),
                ),
                Step(
                    say=_(
                        "Each player has five queens. Players take turns placing them on the grey squares "
                        "around the play area. Place a queen on a3, on the left edge."
                    ),
                    move=place("a3"),
                    replies=(place("j5"),),
                    then=_("The Tutor placed a queen on j5. You each place five, one at a time."),
                ),
            ),
        ),
        Lesson(
            title=_("Moving and collecting cards"),
            seed=7,
            options=DEATH,
            before=SETUP,
            steps=(
                Step(
                    say=_(
                        "All ten queens are placed. Now a turn is one queen move, as in chess: any distance "
                        "straight or diagonally, not over other pieces, ending on a card in the yellow play area. "
                        "A queen never moves from grey square to grey square."
                    ),
                ),
                Step(
                    say=_(
                        "You have four suit stacks, one per suit, all empty. Landing on a card puts a copy on "
                        "the stack of its suit. Pick your queen on a3, then take the 6 of hearts on b3."
                    ),
                    move=move("a3", "b3"),
                    look=("a3",),
                    replies=(move("f8", "f7"),),
                    then=_("Your hearts stack now shows the 6. The Tutor took the 2 of clubs on f7."),
                ),
                Step(
                    say=_(
                        "A stack only grows upwards: a card may be taken only if it is higher than the top card "
                        "of its suit's stack (ace low, king high). The 3 of hearts is closed to you now. Take the "
                        "7 of hearts on g3 with your queen from g0: the cards between do not block, pieces do."
                    ),
                    move=move("g0", "g3"),
                    look=("g0",),
                    replies=(move("c8", "c7"),),
                    then=_("Your hearts stack is 6, 7. The Tutor took the 6 of spades on c7."),
                ),
                Step(
                    say=_(
                        "You may also land on an enemy queen to capture it (you take no card then). A queen "
                        "that has just entered the play area cannot capture on that move. Your queen on b3 has "
                        "been in play for a while: capture the queen on f7."
                    ),
                    move=move("b3", "f7"),
                    look=("b3",),
                    replies=(move("h8", "h7"),),
                    then=_(
                        "Captured. In a Death Match each of your first five captures gives you a new queen to place."
                    ),
                ),
                Step(
                    say=_(
                        "Instead of moving, you may spend a turn placing a queen you have in hand on a free grey "
                        "square. Place your new queen on d8, at the top."
                    ),
                    move=place("d8"),
                    then=_("Your new queen waits on d8, ready to enter the play area on a later turn."),
                ),
                Step(
                    say=_(
                        "The end: when your turn comes and you have no legal move, your queens leave the board "
                        "and you take no more turns; the other player goes on alone. When neither can move, the "
                        "player with the most cards in their stacks wins. In a Death Match a tie goes to the "
                        "advantage player, and running out of time loses."
                    ),
                ),
            ),
        ),
        Lesson(
            title=_("The Final Match"),
            seed=7,
            options=FINAL,
            before=(*SETUP, *FINAL_OPENING),
            steps=(
                Step(
                    say=_(
                        "The Final Match changes three things. A player may have at most three queens in the "
                        "play area; each of the game's first six captures gives both players a queen to place; "
                        "and a queen captured on the turn after it entered gives its owner a queen back."
                    ),
                ),
                Step(
                    say=_(
                        "You have three queens in play, so a grey queen may enter only by a swap: one of your "
                        "queens in play leaves the board as the new one comes in, in one turn. Pick your queen "
                        "on a6, then swap out the queen on d2 to take the 7 of diamonds on b6."
                    ),
                    move={"type": "swap", "remove": "d2", "from": "a6", "to": "b6"},
                    look=("a6",),
                    then=_(
                        "Swapped: the queen on d2 left the board, and your diamonds stack starts with the 7. "
                        "In a Final Match, running out of time takes your queens off and you take no more "
                        "turns; a tie goes to the player who still had queens on the board last."
                    ),
                ),
            ),
        ),
    ),
)
