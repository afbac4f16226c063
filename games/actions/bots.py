"""Bot seats: queueing their moves, and choosing one from the seat's own view with a secret generator (ALL-2)."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

from games.engines.registry import get_bots
from games.models import Match
from games.queue import queue_on_commit
from games.reads import engine_of


def queue_bot_moves(match: Match) -> None:
    """After the commit, a worker lets the bot seat(s) to act at this version move."""
    queue_on_commit("games.tasks.play_bot_moves", match.pk, match.version)


def choose_bot_move(match: Match, seat_number: int, level: str) -> dict[str, Any]:
    """A bot decides from its seat's view and legal moves only; it never sees the state."""
    engine = engine_of(match)
    view = engine.view(match.state, seat_number)
    legal = engine.legal_moves(match.state, seat_number)
    bots = get_bots(engine.slug)
    bot = bots.get(level) or bots["random"]
    return bot(view, legal, bot_rng(match.state, match.version, seat_number))


def bot_rng(state: dict[str, Any], version: int, seat_number: int) -> random.Random:
    """The bot's generator, keyed by the match's secret seed (ruling ALL-2).

    Seeded from public figures (match id, version, seat) anyone could rerun the bot's code and
    learn its hidden choices and bluffs. An HMAC of the secret seed keeps that as secret as the
    cards, and leaves the state (and so the replay of the move log) untouched."""
    secret = str(state["rng"]["seed"]).encode()
    digest = hmac.new(secret, f"bot:{version}:{seat_number}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))
