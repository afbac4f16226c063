"""Games.actions publish each match event from one place, and the apps' listeners write
the same rows as before (ratings on MatchFinished, notifications on the start, turns and ends)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions, events
from games.models import Match, Seat
from notifications.models import Kind, Notification
from ratings.models import RatingChange
from tests.helpers import first_legal, play_first_move, start_match, time_out, user_to_act

pytestmark = pytest.mark.django_db

EVENT_TYPES = [
    events.MatchStarted,
    events.MoveMade,
    events.TurnStarted,
    events.MatchFinished,
    events.SeatHandedToBot,
    events.PlayerInvited,
    events.ReminderDue,
]


@pytest.fixture
def heard():
    """Every event published, in order, as the listeners during the transaction get them."""
    got: list[events.MatchEvent] = []
    for kind in EVENT_TYPES:
        events.subscribe(kind, got.append, during=True)
    yield got
    for kind in EVENT_TYPES:
        events._listeners.during[kind].remove(got.append)


def kinds(got: list[events.MatchEvent]) -> list[str]:
    return [type(event).__name__ for event in got]


def rows(match: Match, kind: str) -> list[str]:
    return sorted(Notification.objects.filter(match=match, kind=kind).values_list("recipient__username", flat=True))


def test_a_start_a_move_and_a_resignation_publish_their_events_once(alice, bob, heard):
    match = start_match(alice, [bob])
    assert kinds(heard) == ["PlayerInvited", "MatchStarted", "TurnStarted"]
    assert heard[0].user == bob and heard[0].key == 0 and rows(match, Kind.INVITED) == ["bob"]
    heard.pop(0)
    started = heard[0]
    assert started.version == 0 and started.starter_id == bob.pk and started.to_move == heard[1].to_move
    heard.clear()
    mover = user_to_act(match)
    actions.do_move(match.pk, mover.user, match.version, first_legal(match, mover.number))
    assert kinds(heard) == ["MoveMade", "TurnStarted"]
    assert heard[0].seat == mover.number and heard[0].by_bot is False and heard[1].mover == mover.number
    heard.clear()
    actions.do_resign(match.pk, alice)
    assert kinds(heard) == ["MoveMade", "MatchFinished"]
    assert heard[1].match.status == Match.Status.FINISHED and heard[1].quiet_user_id is None
    # the listeners: one rating change per seat, "finished" for both players
    assert RatingChange.objects.filter(match=match).count() == 2
    assert rows(match, Kind.FINISHED) == ["alice", "bob"]


def test_a_players_abort_tells_the_others_not_them_and_rates_nothing(alice, bob, heard):
    match = start_match(alice, [bob])
    heard.clear()
    actions.do_player_abort(match.pk, alice)
    assert kinds(heard) == ["MoveMade", "MatchFinished"]
    assert heard[1].quiet_user_id == alice.pk
    assert rows(match, Kind.FINISHED) == ["bob"]
    assert not RatingChange.objects.filter(match=match).exists()


def test_an_adjudication_is_rated_and_told_as_any_end(alice, bob, heard):
    match = start_match(alice, [bob])
    heard.clear()
    actions.do_adjudicate(match.pk, [1], "test")
    assert kinds(heard) == ["MoveMade", "MatchFinished"]
    assert RatingChange.objects.filter(match=match).count() == 2
    assert rows(match, Kind.FINISHED) == ["alice", "bob"]


def test_a_seat_handed_to_a_bot_by_timeouts_is_told_by_a_moderator_not(alice, bob, heard):
    match = play_first_move(start_match(alice, [bob], game="dizzy-duo-battle", options={"lives": 4}))
    late = user_to_act(match)
    Seat.objects.filter(pk=late.pk).update(timeouts_in_row=2)  # ruling ALL-4: this timeout is the third
    time_out(match)
    handed = [e for e in heard if isinstance(e, events.SeatHandedToBot)]
    assert [(e.seat, e.reason) for e in handed] == [(late.number, events.SeatHandedToBot.TIMEOUTS)]
    assert rows(match, Kind.HANDED_TO_BOT) == [late.user.username]

    other = start_match(alice, [bob])
    heard.clear()
    actions.do_hand_seat_to_bot(other.pk, 1)
    assert [(type(e).__name__, e.reason) for e in heard] == [("SeatHandedToBot", events.SeatHandedToBot.MODERATION)]
    assert rows(other, Kind.HANDED_TO_BOT) == []


def test_a_reminder_is_published_once_per_turn_and_written_once(alice, bob, heard):
    match = start_match(alice, [bob])
    seat = match.seats.get(to_act=True)
    Seat.objects.filter(pk=seat.pk).update(remind_at=timezone.now() - timedelta(seconds=1))
    heard.clear()
    assert actions.do_reminders(match.pk) == 1
    assert [(type(e).__name__, e.seat, e.user) for e in heard] == [("ReminderDue", seat.number, seat.user)]
    assert actions.do_reminders(match.pk) == 0  # its remind_at was cleared
    assert rows(match, Kind.REMINDER) == [seat.user.username]


def test_the_actions_import_neither_ratings_nor_notifications():
    """They publish; the apps subscribe (the import-linter contracts check the whole layering)."""
    from pathlib import Path

    folder = Path(actions.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text()
        assert "from ratings" not in text and "import ratings" not in text, path.name
        assert "from notifications" not in text and "import notifications" not in text, path.name


@pytest.fixture
def board_changes():
    """Every BoardChanged published, as a listener during the transaction gets it."""
    got: list[events.BoardChanged] = []
    events.subscribe(events.BoardChanged, got.append, during=True)
    yield got
    events._listeners.during[events.BoardChanged].remove(got.append)


def test_a_move_a_chat_message_and_a_lobby_join_each_publish_one_board_change(alice, bob, board_changes):
    """save_board_change publishes once per call, after the save, with the revision as an integer."""
    from games.actions import SeatSpec
    from moderation.actions import post_chat

    match = start_match(alice, [bob])
    board_changes.clear()
    mover = user_to_act(match)
    actions.do_move(match.pk, mover.user, match.version, first_legal(match, mover.number))
    match.refresh_from_db()
    assert [(e.match.pk, e.version, e.revision) for e in board_changes] == [(match.pk, match.version, match.revision)]
    assert type(board_changes[0].revision) is int

    board_changes.clear()
    post_chat(match.pk, alice, "good luck")
    match.refresh_from_db()
    assert [(e.match.pk, e.revision) for e in board_changes] == [(match.pk, match.revision)]

    three = actions.create_match(alice, "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("open"), SeatSpec("open")])
    assert [(e.match.pk, e.revision) for e in board_changes[1:]] == [(three.pk, 0)]  # created open: revision 0
    board_changes.clear()
    actions.do_join(three.pk, bob)  # a seat is still open: no start
    three.refresh_from_db()
    assert three.status == Match.Status.OPEN and three.revision == 1
    assert [(e.match.pk, e.revision) for e in board_changes] == [(three.pk, 1)]


def test_docs_list_every_subscription():
    """docs/move-path.md's table of listeners is the one place a reader finds them: it lists exactly
    the subscriptions the apps make."""
    from pathlib import Path

    table = (Path(__file__).resolve().parents[2] / "docs/move-path.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| `([\w.]+)` \| (in the transaction|after the commit) \|$", table, re.M)
    documented = sorted((event, listener, when == "in the transaction") for event, listener, when in rows)
    assert len(documented) >= 10
    assert documented == events.subscriptions()
