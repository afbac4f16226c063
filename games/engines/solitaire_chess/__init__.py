"""Solitaire Chess (seed 004, rulings SC-1 to SC-7): queens collect rising runs of playing cards.

Squares and cards: see rules.py. Moves (JSON):
- {"type": "order", "first": true | false}   the advantage player goes first or second (SC-2)
- {"type": "place", "to": "a3"}              a piece from hand onto an empty grey square (SC-3, SC-5)
- {"type": "move", "from": "a3", "to": "d6"}  a queen move; landing on an enemy piece captures (SC-4)
- {"type": "swap", "remove": "e5", "from": "a3", "to": "b3"}
                                             Final Match: remove one of your 3 play-area pieces and
                                             bring a grey piece in, as one turn (SC-5)

Table rules we chose
--------------------
Points the seed and the rulings leave open, settled as a real table would:

1. Whether you are out is judged when your turn comes: if you then have no legal move at all, your
   pieces (on the board and in hand) are removed and you take no more turns (SC-6). Placing a piece
   from hand on an empty grey square is a legal move, so a player with pieces to place and a free
   grey square is never out.
2. A player with no pieces on the board and none to place has no legal move: they are out at their
   next turn. Nothing can bring pieces back after that.
3. Once out, always out, even if the other player's later moves would have opened a way.
4. Pieces on grey squares can never be captured: every move must end in the play area.
5. The turn order simply alternates (order choice aside); when one player is out the other plays
   every turn until they too have no legal move.
6. Cards never leave the board: landing takes a copy, so both players may take the same card, and a
   card under a captured piece stays where it is for anyone to take later. A capture gains no card.
7. Death Match bonus: each of your own first 5 captures gives you a piece to place.
8. Final Match: the game's first 6 captures (by either player) each give both players a piece. "The
   turn after it entered" is the very next turn of the game, i.e. the opponent's reply.
9. Swap (Final Match): only with exactly 3 of your pieces in the play area. The removed piece leaves
   first, so the incoming piece may pass over or land on the square it left. The removed piece is
   simply gone: nobody gains a piece for it. The entering piece takes its card as usual.
10. Pieces to place may be kept in hand as long as you like; they count for nothing at the end.
11. Final Match tie: the player who went out later (whose pieces were removed last) wins; a
    player removed for running out of time counts as removed at that moment.
12. Running out of time while choosing the order: in a Death Match you lose; in a Final Match you
    are out and the other player goes first.
"""

from games.engines.solitaire_chess import board, bots, tutorial
from games.engines.solitaire_chess.engine import ENGINE, SolitaireChess
from games.engines.spec import GameSpec, LiveClock

# The seed's tournament clock: 1 minute a turn, 5 reserve periods of 1 minute (ALL-1).
SPEC = GameSpec(
    ENGINE,
    board.present,
    LiveClock(60, 5, 60),
    bots.BOTS,
    tutorial.TUTORIAL,
    hint_bot="normal",
    move_words=board.move_words,
)

__all__ = ["ENGINE", "SPEC", "SolitaireChess"]
