"""Hints in practice matches: a player facing a bot in an unrated match may ask what a bot would
play. The bot sees the asking player's own view and legal moves, as it would in their seat, and
draws from a fresh generator (never one made from the match's secrets). Only games of open
information offer it (their spec's `hint_bot`): their view is the whole game. Rated matches offer
no hint and say so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engines.registry import get_spec
from games.engines.spec import move_json
from games.models import BOT_LEVELS, Match


@dataclass(frozen=True)
class Hint:
    offered: bool  # the viewer may ask: a practice match, their turn, a game that has hints
    off_in_rated: bool = False  # the same, but the match is rated: say why there is none
    bot_name: str = ""
    move_json: str = ""  # the suggested move, as the board's buttons write it
    words: Any = ""
    select: str = ""  # the board selection that shows the move's button (the piece it moves)


def hint_for(match: Match, seats: list, pv, *, asked: bool) -> Hint:
    spec = get_spec(match.game)
    practice = any(seat.is_bot for seat in seats) and match.status == Match.Status.ACTIVE
    if not (spec.hint_bot and practice and pv.my_turn and pv.view is not None and pv.legal):
        return Hint(offered=False)
    if match.rated:
        return Hint(offered=False, off_in_rated=True)
    bot_name = dict(BOT_LEVELS)[spec.hint_bot]
    if not asked:
        return Hint(offered=True, bot_name=bot_name)
    legal = spec.engine.legal_moves(match.state, pv.seat)
    move = spec.bots[spec.hint_bot](pv.view, legal, random.Random())
    words = spec.move_words(pv.view, move) if spec.move_words else ""
    return Hint(
        offered=True,
        bot_name=bot_name,
        move_json=move_json(move),
        words=words,
        select=str(move.get("from", "")),
    )
