"""Which kinds a player wants pushed to their devices (accounts.User.push_preferences)."""

from __future__ import annotations

from notifications.models import Kind

# A push interrupts: on for what asks the player to act or tells them a match is decided; off for
# "a match has started" (the turn push follows when it is theirs).
PUSH_DEFAULTS = {
    Kind.YOUR_TURN: True,
    Kind.REMINDER: True,
    Kind.INVITED: True,
    Kind.STARTED: False,
    Kind.FINISHED: True,
    Kind.HANDED_TO_BOT: True,
    Kind.CHAT: True,
    # The player just entered (they know); the start and the end they may not be waiting for.
    Kind.TOURNAMENT_ENTRY: False,
    Kind.TOURNAMENT_STARTED: True,
    Kind.TOURNAMENT_OVER: True,
    Kind.TOURNAMENT_ROUND: True,  # a new match to play, perhaps days after the last one
}


def wants_push(user, kind: str) -> bool:
    choice = (user.push_preferences or {}).get(kind)
    return choice if isinstance(choice, bool) else PUSH_DEFAULTS.get(kind, False)
