"""The live events carry nothing but revisions, kinds and counts, whatever happens in a match.

Every message the site publishes while whole matches of every game are played (with their hidden
hands, piles and seeds) is recorded where it leaves for Redis or the in-process queues, and checked
against the one shape an event may have. The twin test (test_hidden_information.py) also reads what
each viewer's streams send at once (tests/live_surfaces.py)."""

from __future__ import annotations

import random

import pytest

from games import actions
from games.actions import SeatSpec
from games.engines.registry import available_engines
from games.models import Match
from live import broadcast
from live.broadcast import Message

pytestmark = [pytest.mark.audit, pytest.mark.slow, pytest.mark.django_db]

# What each kind of message may say: names and integer values only (a logout's session tag aside).
ALLOWED = {"revision": {"revision"}, "turns": set(), "bell": set(), "lobby": set(), "close": {"session"}}


def check_message(message: Message, secrets: list[str]) -> None:
    assert message.kind in ALLOWED, message
    assert set(message.data) <= ALLOWED[message.kind], message
    for name, value in message.data.items():
        assert isinstance(value, int) if name != "session" else isinstance(value, str) and len(value) == 20, message
    assert message.channel.split(":")[0] in ("match", "user", "lobby"), message
    text = message.encode()
    for secret in secrets:
        assert secret not in text, f"{message} tells {secret!r}"


@pytest.fixture
def sent(monkeypatch):
    messages: list[Message] = []
    original = broadcast._send
    monkeypatch.setattr(broadcast, "_send", lambda message: (messages.append(message), original(message)))
    return messages


@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_a_whole_match_publishes_only_revisions_and_counts(slug, make_user, sent, django_capture_on_commit_callbacks):
    engine = available_engines()[slug]
    users = [make_user(f"p{i}") for i in range(engine.min_players)]
    rng = random.Random(slug)
    with django_capture_on_commit_callbacks(execute=True):
        seats = [SeatSpec("me")] + [SeatSpec("invite", u.username) for u in users[1:]]
        match = actions.create_match(users[0], slug, seats, options={"lives": 2} if slug == "dizzy-duo-battle" else {})
        for user in users[1:]:
            actions.do_join(match.pk, user)
    secrets = {str(Match.objects.get(pk=match.pk).state["rng"]["seed"])}
    for _ in range(engine.max_moves(len(users), match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = engine.to_act(match.state)[0]
        with django_capture_on_commit_callbacks(execute=True):
            actions.do_move(match.pk, users[seat], match.version, rng.choice(engine.legal_moves(match.state, seat)))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    revisions = [m.data["revision"] for m in sent if m.kind == "revision"]
    assert revisions == sorted(revisions) and revisions[-1] == match.revision  # each change, in order
    for message in sent:
        check_message(message, [s for s in secrets if len(s) > 3])


def test_the_check_catches_a_planted_leak():
    """The check can fail: an event that carried a hand, or any field beyond its kind's, is caught."""
    with pytest.raises(AssertionError):
        check_message(Message("match:1", "revision", {"revision": 3, "hand": 7}), [])
    with pytest.raises(AssertionError):
        check_message(Message("match:1", "revision", {"revision": "3 - hand: A♠"}), [])
    with pytest.raises(AssertionError):
        check_message(Message("user:1", "bell", {}), ["user:1"])
    check_message(Message("match:1", "revision", {"revision": 3}), ["secret"])  # a proper one passes
