"""How a match's seats are asked for: the create-a-match form builds these and the lobby actions
check and fill seats from them, so the shape lives here, below both."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SeatSpec:
    """How the match creator fills a seat: "me", "open", "bot" (with a level) or "invite" (a username)."""

    kind: str
    value: str = ""
