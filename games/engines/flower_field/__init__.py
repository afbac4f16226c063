"""Doubting Flower Field (seed 003, rulings FF-1 to FF-9): plant flowers on a 7x7 field without making
two equal flower fields, with two hidden flowers each and a lot of doubt.

Moves (small JSON objects; the same object is the form's payload, the log record and a bot's answer):

    {"type": "order", "go": "first" | "second"}          the advantage player's choice (FF-1)
    {"type": "hide", "flowers": [{"cell": "B2", "colour": "red"}, {"cell": "F6", "colour": "blue"}]}
                                                         two hidden flowers, both seats at once (FF-2)
    {"type": "plant", "flowers": [{"cell": "C4", "colour": "blue"}]}      one or two flowers (FF-3)
    {"type": "challenge", "a": ["C4", "C5", "C6", "D6"], "b": ["E1", "F1", "G1", "G2"]}
                                                         two named fields, up to two empty cells (FF-5);
                                                         also the full-field challenge (FF-8)
    {"type": "give_up"}                                  an announced failed challenge (FF-5)
    {"type": "challenge_challenge"} / {"type": "accept"} the window after a challenge that named empty
                                                         cells (FF-7)
    {"type": "pass"}                                     on a full field, instead of challenging (FF-8)

Colours are "red", "blue", "yellow"; cells "A1".."G7" (column letter, row number), D4 is the centre.

Table rules where the rules are silent (also for the rules page):
- The advantage player chooses first or second before anyone hides flowers.
- A redo after a successful challenge is a planting (FF-6 "they plant again"); the challenge-challenge
  window offers exactly two moves, challenge-challenge or accept, and accepting leads to the replant.
- Each explosion costs a life, so two flowers planted on two hidden flowers cost two.
- Lives never go below 0 (a player at 0 has lost anyway).
- Giving up is offered on a normal turn only; on a full field passing costs nothing, so give up is not
  offered there.
- A final (full-field) challenge must, like any challenge, involve the last planting.
- Naming an empty cell that surely holds no hidden flower is a legal (and false) claim.

See engine.py for the state machine and the view's keys, rules.py for the field geometry (cells, flower
fields, duplicates), bots.py for the bots, board.py for the board, phrases.py for the words for flowers.
"""

from games.engines.flower_field import board, bots, tutorial
from games.engines.flower_field.engine import ENGINE, FlowerFieldEngine
from games.engines.spec import GameSpec, LiveClock

# The seed's tournament clock: 2 minutes a turn, 10 minutes of reserve in 30-second periods (ALL-1),
# and "Players will receive an extra minute if they challenge": a challenge, or giving one up (FF-5:
# "an announced failure", so a challenge too), adds a minute to the challenger's running turn.
CLOCK = LiveClock(120, 20, 30, extra_seconds=60, extra_for=("challenge", "give_up"))
SPEC = GameSpec(ENGINE, board.present, CLOCK, bots.BOTS, tutorial.TUTORIAL)

__all__ = ["ENGINE", "SPEC", "FlowerFieldEngine"]
