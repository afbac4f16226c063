"""The ways a notification row reaches its player besides the inbox and email: each is a function of
the row, called inside the transaction that wrote it (it writes its own rows and queues their sending
for after the commit). The push app registers itself in PushConfig.ready(), so notifications never
imports push."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_channels: list[Callable[[Any], object]] = []
_bulk: dict[Callable[[Any], object], Callable[[list[Any]], object]] = {}


def register_channel(channel: Callable[[Any], object], many: Callable[[list[Any]], object] | None = None) -> None:
    """Add `channel(row)` to the ways out (idempotent); `many(rows)` does the same for many rows at
    once in a bounded number of queries (notifications.service.notify_all)."""
    if channel not in _channels:
        _channels.append(channel)
    if many is not None:
        _bulk[channel] = many


def deliver(row: Any) -> None:
    """Hand the new notification row to every registered channel."""
    for channel in _channels:
        channel(row)


def deliver_many(rows: list[Any]) -> None:
    """Hand many new rows to every channel: at once where it can take them so, else one by one."""
    for channel in _channels:
        if channel in _bulk:
            _bulk[channel](rows)
        else:
            for row in rows:
                channel(row)
