"""Lizzy Ghosties (seed 001, rulings LZ-1 to LZ-3, LG-1 to LG-11): steal, give and burn body-part
cards; Lizzies that lose their bodies turn into ghosts; the last two Lizzies face the ghosts.

Seats are 0..players-1 and clockwise is seat + 1. Parts are "head", "body", "tail"; cards are
dizzy_cards names ("tail-purple-diamonds-gold"). Every move is one decision (ruling LG-4).

Moves (JSON)
------------
A Lizzy's turn, passing the Lizzy `pending.opponent` (LG-4):
- {"type": "steal", "from": 2, "part": "head"}   its top head onto your own Lizzy
- {"type": "give", "to": 2, "part": "tail"}      your top tail onto its Lizzy
- {"type": "skip"}
An event (LG-5; `pending.event`): one attempt on `targets[0]` when the draw was won, one card of
choice from any other living Lizzy when it was lost:
- steal event: {"type": "steal", "from": 3, "part": "body"}   onto your own Lizzy
- burn event:  {"type": "burn", "from": 3, "part": "body"}    onto the Burn Lizzy
- {"type": "skip"}
A ghost's turn (LG-7), also a team Ghosties turn in the showdown (LG-8):
- {"type": "ghost_steal", "from": 1, "part": "tail"}          into your face-down pile; turn ends
- {"type": "ghost_double", "head": 1, "body": 3, "tail": 4}   one top card from each of three
  living Lizzies forming a double on a loaned Lizzy; in the showdown one source is "burn"
A ghost event (LG-7): {"type": "steal", "from": 1, "part": "head"} onto the loaned Lizzy, or skip.
Team Lizzies in the showdown (LG-8):
- {"type": "move", "from": 0, "to": 2, "part": "head"}   a top card from one team Lizzy to the other
- {"type": "take_burn", "to": 0, "part": "tail"}          a Burn Lizzy top card onto a team Lizzy
Only legal choices are listed; a decision whose only choice is "skip" (or a team pass) is taken
by the engine at once, so nobody waits days to click "skip".

The view (view(state, seat))
----------------------------
game, seat, players, dicey, phase ("opening" | "transition" | "showdown" | "over"), first_player,
turn (the seat deciding now), to_act, cycle, max_cycles,
seats: per seat {seat, ghost, stacks: {part: {top, size}} or None, lizzy: {complete, valid,
  double, golden, colours, patterns} or None, pile_size, cards, team},
burn: {stacks, lizzy}, burn_size, loaned: None or {seat, stacks, lizzy} (a ghost's loaned Lizzy),
side_stack_size, teams: None or {lizzies, ghosts} (living Lizzies vs ghosts before the showdown,
  the showdown's teams in it, the final teams at the end),
showdown: None or {team, team_turns, max_team_turns, extra_turn},
pending: None or {seat, kind ("pass" | "event" | "ghost_turn" | "ghost_event" | "showdown_lizzies"
  | "showdown_ghosts"), opponent, event: {kind, on, won, start, targets} or None, prompt},
legal_moves (the viewer's, empty when it is not their decision), move_effects: [{move, effect}]
  for those of the viewer's legal moves that set something off ("event": it leaves a double on
  the receiving Lizzy, "extra_turn": a new showdown double, "turn_ends": a ghost's steal),
last_draw: None or {seat, event, on, golden, card, dice, won} (the last side-stack card or dice
  throw, shown to all), result: None or {winners, scores, reason, draw, lizzies, ghosts, cards},
revealed: None until the end, then {lizzies, piles, burn, side_stack} with every card (ALL-3).
Nobody sees a card below a top, the side stack's order or a pile's inside (LG-2); never the seed.

Clocks and audit: turn_key() is one key for a whole turn (a Lizzy's pass-around with all its
events; one showdown team turn), ruling ALL-1. hidden_twin() deals anew every card below a top,
every ghost pile and the side stack, the same for every viewer since LG-2 hides them from all.

Table rules we chose
--------------------
Points the seed and the rulings leave open, settled as a real table would:

1. A player's team is what they are when the game ends (LG-8 counts "Lizzy stacks vs ghost
   piles"): a showdown Lizzy that turns ghost ends the game and counts with the ghosts.
2. Within a showdown team, players take the team's turns in seat order clockwise from the player
   whose turn the showdown cut off; an extra turn goes to the team's next player.
3. A showdown Lizzy may move a card either way between the two team Lizzies. A "new double" is
   a receiving Lizzy that is a double after the move (as LG-4 counts doubles).
4. "Skip" is allowed in every event attempt and also when the draw was lost ("you still get to"
   take a card: a right, not a duty). A ghost must act (LG-7) and team Lizzies pass only when
   they cannot move (LG-8).
5. An event's attempts go to the other living Lizzies clockwise from its start, each once; the
   list is fixed when the event starts (a chain starts a fresh list from the same start).
6. A cycle (LG-10) is one turn for every seat, counted from the first player; ghosts' turns count.
7. If a ghost double turns two Lizzies ghost at once and fewer than two are left (four or more
   players), there is no showdown: the game ends as in three-player mode (LG-9). No Lizzy left
   at all is a draw, as is the LG-10 end with no ghost yet.
8. Result scores: every seat gets its team's card total (so winners share the top score); the
   result's "cards" lists each seat's own count. Cards left on the Burn Lizzy count for nobody.
9. The deal takes each player's cards from the part's shuffled cards, then the Burn Lizzy's, the
   rest shuffled into the side stack: the same chances as the seed's select-then-deal steps.
"""

from games.engines.lizzy_ghosties import board, bots, tutorial
from games.engines.lizzy_ghosties.engine import ENGINE, LizzyGhosties
from games.engines.spec import GameSpec, LiveClock

# The seed names no clock: 2 minutes a turn (a turn has several decisions) and 5 reserve minutes (ALL-1).
SPEC = GameSpec(ENGINE, board.present, LiveClock(120, 5, 60), bots.BOTS, tutorial.TUTORIAL)

__all__ = ["ENGINE", "SPEC", "LizzyGhosties"]
