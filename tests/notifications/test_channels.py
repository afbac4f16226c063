"""Push is a channel that registers itself with notifications: notifications imports no push."""

from __future__ import annotations

import pytest

from notifications import channels
from notifications.models import Kind
from notifications.service import notify
from push.service import queue_pushes
from tests.helpers import start_match


def test_push_registered_itself_as_a_channel_once():
    assert channels._channels.count(queue_pushes) == 1
    channels.register_channel(queue_pushes)
    assert channels._channels.count(queue_pushes) == 1


@pytest.mark.django_db
def test_a_new_row_goes_to_every_registered_channel(alice, bob, monkeypatch):
    match = start_match(alice, [bob])
    got = []
    monkeypatch.setattr(channels, "_channels", [*channels._channels, got.append])
    row = notify(match, bob, Kind.REMINDER, 99)
    assert got == [row]
    assert notify(match, bob, Kind.REMINDER, 99) is None  # the same row again: no row, nothing delivered
    assert got == [row]
