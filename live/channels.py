"""The names and the one shape of the live events (live.broadcast re-exports all of it).

A module of its own so that live.watcher can make messages without importing live.broadcast, which
starts the watcher (no import circle: `make lint`'s acyclic contract)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MATCH = "match"
USER = "user"
LOBBY_CHANNEL = "lobby"
REVISION = "revision"  # a match message's kind
RESYNC = "resync"  # events may have been lost: re-read
# What a user event says changed; the stream computes that user's own counts when it hears one.
USER_KINDS = ("bell", "turns", "lobby", "close")


def match_channel(match_id: int) -> str:
    return f"{MATCH}:{int(match_id)}"


def user_channel(user_id: int) -> str:
    return f"{USER}:{int(user_id)}"


@dataclass(frozen=True)
class Message:
    channel: str
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def encode(self) -> str:
        return json.dumps({"c": self.channel, "k": self.kind, "d": self.data}, separators=(",", ":"))

    @classmethod
    def decode(cls, raw: str | bytes) -> Message:
        value = json.loads(raw)
        return cls(channel=str(value["c"]), kind=str(value["k"]), data=dict(value.get("d") or {}))
