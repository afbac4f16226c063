"""The ways a notification row reaches its player besides the inbox and email: each is a function of
the row, called inside the transaction that wrote it (it writes its own rows and queues their sending
for after the commit). The push app registers itself in PushConfig.ready(), so notifications never
imports push (issue 31)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_channels: list[Callable[[Any], object]] = []


def register_channel(channel: Callable[[Any], object]) -> None:
    """Add `channel(row)` to the ways out (idempotent)."""
    if channel not in _channels:
        _channels.append(channel)


def deliver(row: Any) -> None:
    """Hand the new notification row to every registered channel."""
    for channel in _channels:
        channel(row)
