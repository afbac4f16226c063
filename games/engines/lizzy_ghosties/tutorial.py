"""The Lizzy Ghosties tutorial (games/engines/tutorial.py): its whole round on the real board.

Three players (the three-player mode): the learner is the first seat, two Tutors the others. Each
lesson deals fixed Lizzies (a patch; stacks list their cards bottom first, the top last) and puts
the side stack's cards in a fixed order, the rest of the deck after them.
"""

from __future__ import annotations

from collections import Counter

from games.engines import dizzy_cards as cards
from games.engines.tutorial import Lesson, Step, Tutorial
from games.engines.words import _

PARTS = ("head", "body", "tail")


def lizzy(head: list[str], body: list[str], tail: list[str]) -> dict:
    return {"head": head, "body": body, "tail": tail}


def deal(lizzies: list[dict], burn: dict, side_top: list[str], *, exact: tuple[int, ...] = ()) -> dict:
    """A patch: these Lizzies and Burn Lizzy, the side stack starting with `side_top`, the learner to
    act. The stacks of the Lizzies not in `exact` are filled from below with unused cards of their
    part, three each and then round the stacks, until the table holds as many cards as a deal (the
    side stack keeps its size, LG-5)."""
    unused = Counter(cards.DECK) - Counter(side_top)
    for one in [*lizzies, burn]:
        for stack in one.values():
            unused -= Counter(stack)
    spare = list(unused.elements())
    table = len(cards.DECK) - len(side_top) - len(spare)
    side_size = len(cards.DECK) - 3 * (3 * len(lizzies) + 1)
    stacks = [one[part] for seat, one in enumerate(lizzies) if seat not in exact for part in PARTS]
    for stack in stacks:
        while len(stack) < 3 and table < len(cards.DECK) - side_size:
            table += _add_below(stack, spare)
    while table < len(cards.DECK) - side_size:
        table += sum(_add_below(stack, spare) for stack in stacks[: len(cards.DECK) - side_size - table])
    return {
        "lizzies": lizzies,
        "burn": burn,
        "side": side_top + spare,
        "piles": [[] for _ in lizzies],
        "first": 0,
        "phase": "opening",
        "step": {"seat": 0, "kind": "lizzy", "opponent": 1, "event": None},
    }


def _add_below(stack: list[str], spare: list[str]) -> int:
    part = cards.part_of(stack[-1])
    card = next(card for card in spare if cards.part_of(card) == part)
    spare.remove(card)
    stack.insert(0, card)
    return 1


EVENTS = deal(
    [
        lizzy(
            ["head-purple-diamonds", "head-red-dots"],
            ["body-blue-stripes", "body-red-stripes"],
            ["tail-purple-dots", "tail-blue-diamonds"],
        ),
        lizzy(
            ["head-blue-dots", "head-purple-stripes"],
            ["body-purple-dots", "body-blue-diamonds"],
            ["tail-red-stripes", "tail-red-diamonds"],
        ),
        lizzy(
            ["head-purple-dots", "head-red-stripes"],
            ["body-purple-diamonds", "body-blue-dots"],
            ["tail-blue-stripes", "tail-purple-stripes"],
        ),
    ],
    lizzy(["head-blue-diamonds"], ["body-red-diamonds"], ["tail-purple-diamonds"]),
    ["body-red-dots"],
)

BURNS = deal(
    [
        lizzy(["head-red-dots"], ["body-blue-stripes"], ["tail-red-stripes"]),
        lizzy(["head-blue-stripes"], ["body-purple-dots"], ["tail-purple-diamonds"]),
        lizzy(["head-purple-stripes"], ["body-red-dots"], ["tail-blue-dots"]),
    ],
    lizzy(["head-blue-diamonds"], ["body-red-diamonds"], ["tail-purple-dots"]),
    ["tail-purple-stripes"],
)

GHOSTS = deal(
    [
        lizzy(["head-purple-diamonds"], ["body-purple-stripes"], ["tail-red-stripes"]),
        lizzy(["head-blue-dots"], [], ["tail-blue-stripes", "tail-blue-diamonds"]),
        lizzy(["head-purple-stripes"], ["body-red-dots"], ["tail-blue-dots"]),
    ],
    lizzy(["head-blue-diamonds"], ["body-red-diamonds"], ["tail-purple-dots"]),
    [],
    exact=(1,),
)


def steal(seat: int, part: str) -> dict:
    return {"type": "steal", "from": seat, "part": part}


SKIP = {"type": "skip"}

TUTORIAL = Tutorial(
    picture=1,
    # The rules page's pictures: a won steal event, a turn going on past it, a won burn event, a ghost.
    pictures={"steal": 2, "turn": 4, "burn": 6, "ghost": 10},
    players=3,
    seat=0,
    minutes=5,
    goal=_(
        "The goal: end on the winning team. Grow your Lizzy with doubles and events, and keep it alive to the "
        "showdown; or, as a ghost, steal enough cards that the ghosts hold more than the Lizzies."
    ),
    lessons=(
        Lesson(
            title=_("Stealing, giving and a steal event"),
            seed=7,
            patch=EVENTS,
            steps=(
                Step(
                    say=_(
                        "Everyone starts as a Lizzy: three stacks (heads, bodies, tails) whose top cards make the "
                        "Lizzy. Only top cards are seen. A Lizzy is valid when its three tops have all the same or "
                        "all different colours, or all the same or all different patterns; a double meets a colour "
                        "and a pattern condition at once."
                    ),
                ),
                Step(
                    say=_(
                        "On your turn you pass every other Lizzy in turn and may steal one of its top cards, give it "
                        "one of yours, or skip; your Lizzy (or theirs, for a gift) must be valid afterwards. Steal "
                        "the first Tutor's red diamonds tail: all red, all patterns different, a double."
                    ),
                    move=steal(1, "tail"),
                    then=_(
                        "A double with the same colours starts a steal event: a card is drawn from the side stack, "
                        "and it was red like your Lizzy, so you won: one more steal from each other Lizzy."
                    ),
                ),
                Step(
                    say=_("Steal the second Tutor's red stripes head."),
                    move=steal(2, "head"),
                    then=_("Had you lost the draw, you would still steal one card, from a Lizzy of your choice."),
                ),
                Step(
                    say=_("The event's last attempt is on the first Tutor again: skip it."),
                    move=SKIP,
                ),
                Step(
                    say=_(
                        "The event is over and your turn goes on with the next Lizzy. Give the second Tutor your red "
                        "stripes head: a gift never starts an event, but it can keep a friend alive, or pass you "
                        "cards later."
                    ),
                    move={"type": "give", "to": 2, "part": "head"},
                    then=_("Your turn is over: you passed both Tutors."),
                ),
            ),
        ),
        Lesson(
            title=_("A burn event"),
            seed=7,
            patch=BURNS,
            steps=(
                Step(
                    say=_(
                        "Your Lizzy is not valid now, but you may still steal a card that makes it valid. Steal the "
                        "first Tutor's purple diamonds tail: red, blue and purple, dots, stripes and diamonds."
                    ),
                    move=steal(1, "tail"),
                    then=_(
                        "A double with different colours starts a burn event. The drawn card was a tail as purple as "
                        "your tail, so you won: one burn from each other Lizzy, onto the Burn Lizzy in the middle."
                    ),
                ),
                Step(
                    say=_(
                        "Burn the second Tutor's purple stripes head: it goes on the Burn Lizzy, which must stay "
                        "valid. A double made on the Burn Lizzy starts a new event too."
                    ),
                    move={"type": "burn", "from": 2, "part": "head"},
                ),
                Step(say=_("Skip the last attempt, on the first Tutor."), move=SKIP),
                Step(
                    say=_("Skip the second Tutor to end your turn."),
                    move=SKIP,
                    then=_("The Burn Lizzy's cards matter at the end: the last Lizzies fight over them."),
                ),
            ),
        ),
        Lesson(
            title=_("Ghosts and the end"),
            seed=7,
            patch=GHOSTS,
            steps=(
                Step(
                    say=_(
                        "A Lizzy with cards in fewer than two of its stacks turns into a ghost, its cards face down in "
                        "its pile. The first Tutor has no bodies and one head left: steal its blue dots head."
                    ),
                    move=steal(1, "head"),
                    then=_("The first Tutor is a ghost now. Ghosts play on, as a team against the Lizzies."),
                ),
                Step(
                    say=_("Skip the second Tutor."),
                    move=SKIP,
                    replies=({"type": "ghost_steal", "from": 0, "part": "tail"},),
                    then=_(
                        "On its turn a ghost steals one top card from a Lizzy into its pile. Instead it may take one "
                        "card from each of three Lizzies to make a double on a loaned Lizzy: a ghost event."
                    ),
                ),
                Step(
                    say=_(
                        "The end. With four or more players, when two Lizzies are left a showdown starts: the two "
                        "Lizzies move cards between them or take Burn Lizzy cards, the ghosts steal, until the Burn "
                        "Lizzy is empty; the team with more cards wins. With three players, the last Lizzy takes the "
                        "Burn Lizzy and wins if it then holds more cards than all ghosts together. A match option "
                        "throws the Dizzy Dice instead of drawing."
                    ),
                ),
            ),
        ),
    ),
)
