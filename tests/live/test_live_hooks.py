"""live.hooks: what publishes the live events, after commit and only then."""

from __future__ import annotations

import pytest

from live import hooks
from tests.helpers import first_legal, play_first_move, start_match, user_to_act


@pytest.fixture
def published(monkeypatch):
    sent: list[tuple] = []
    monkeypatch.setattr(hooks, "publish_match", lambda match_id, revision: sent.append(("match", match_id, revision)))
    monkeypatch.setattr(hooks, "publish_user", lambda user_id, kind, **data: sent.append((kind, user_id, data)))
    monkeypatch.setattr(hooks, "publish_lobby", lambda: sent.append(("lobby",)))
    return sent


@pytest.mark.django_db
def test_a_move_publishes_its_revision_and_the_players_turns_after_commit(
    alice, bob, published, django_capture_on_commit_callbacks, client_for
):
    from tests.helpers import post_move

    match = start_match(alice, [bob])
    published.clear()
    seat = user_to_act(match)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post_move(client_for(seat.user), match, first_legal(match, seat.number))
        assert response.status_code in (200, 302)
    assert published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    match.refresh_from_db()
    assert ("match", match.pk, match.revision) in published
    assert {p[1] for p in published if p[0] == "turns"} == {alice.pk, bob.pk}
    assert ("lobby",) not in published  # a move in a running match does not change the lobby


@pytest.mark.django_db
def test_an_open_match_changes_the_lobby(alice, published, django_capture_on_commit_callbacks):
    from games import actions
    from games.actions import SeatSpec

    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    assert ("lobby",) in published
    assert ("match", match.pk, match.revision) in published


@pytest.mark.django_db
def test_a_join_that_starts_and_a_cancel_tell_the_lobby(alice, bob, published, django_capture_on_commit_callbacks):
    """The join's own change and the start are two BoardChanged events: both revisions go out, in order."""
    from games import actions
    from games.actions import SeatSpec

    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    before = match.revision
    published.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        actions.do_join(match.pk, bob)
    assert published == []  # nothing before the commit
    for callback in callbacks:
        callback()
    match.refresh_from_db()
    assert match.status == match.Status.ACTIVE and match.revision == before + 2
    assert [p for p in published if p[0] == "match"] == [
        ("match", match.pk, before + 1),
        ("match", match.pk, before + 2),
    ]
    assert ("lobby",) in published
    assert {p[1] for p in published if p[0] == "turns"} == {alice.pk, bob.pk}

    other = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_cancel(other.pk, alice)
    other.refresh_from_db()
    assert published == [("match", other.pk, other.revision), ("turns", alice.pk, {}), ("lobby",)]


@pytest.mark.django_db
def test_a_match_saved_without_a_board_change_publishes_nothing(
    alice, bob, published, django_capture_on_commit_callbacks
):
    """No post_save receiver on Match any more: only BoardChanged (save_board_change) is heard."""
    match = start_match(alice, [bob])
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match.save()
    assert published == []


@pytest.mark.django_db
def test_a_notification_rings_its_readers_bell(alice, bob, published, django_capture_on_commit_callbacks):
    from notifications.models import Kind, Notification

    match = start_match(alice, [bob])
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        row = Notification.objects.create(kind=Kind.CHAT, match=match, recipient=bob, turn=1)
    assert published == [("bell", bob.pk, {})]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        row.status = Notification.Status.SENT
        row.save(update_fields=["status"])  # the mail went out: the bell's count is the same
    assert published == []


@pytest.mark.django_db
def test_a_ban_and_a_logout_close_streams(alice, published, django_capture_on_commit_callbacks, client_for):
    client = client_for(alice)
    key = client.cookies["sessionid"].value
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/logout/")
    assert published == [("close", alice.pk, {"session": hooks.session_tag(key)})]
    published.clear()
    with django_capture_on_commit_callbacks(execute=True):
        alice.is_active = False
        alice.save(update_fields=["is_active"])
    assert published == [("close", alice.pk, {})]


def test_session_tags_hide_the_key():
    tag = hooks.session_tag("abc")
    assert tag and "abc" not in tag and tag == hooks.session_tag("abc") != hooks.session_tag("abd")
    assert hooks.session_tag(None) == ""


@pytest.mark.django_db
def test_a_bots_move_publishes_too(alice, published, django_capture_on_commit_callbacks):
    """A bot's move (the worker's, in production) goes through the same save: it is heard as well."""
    from games import actions

    match = start_match(alice, ["random"])
    for _ in range(20):  # alice plays until the bot is to act (a Solitaire Chess turn may be several moves)
        if user_to_act(match).is_bot:
            break
        match = play_first_move(match)
    bot = user_to_act(match)
    assert bot.is_bot
    published.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        actions.do_bot_move(match.pk, bot.number, match.version, first_legal(match, bot.number))
    ours = [c for c in callbacks if getattr(c, "func", None) is hooks.board_changed]
    assert len(ours) == 1
    ours[0]()  # only the live hook's (the others would queue the next bot move and the emails)
    match.refresh_from_db()
    assert published[0] == ("match", match.pk, match.revision)
    assert ("turns", alice.pk, {}) in published


@pytest.mark.django_db
def test_matches_started_in_bulk_publish_their_revisions_turns_and_one_lobby_event(
    alice, bob, carol, published, django_capture_on_commit_callbacks
):
    """games.actions.batch.start_matches bulk-creates (no BoardChanged): its MatchesStarted event is heard
    after the commit, and only then."""
    from django.db import transaction

    from games.actions.batch import NewMatch, start_matches
    from games.engines.registry import get_engine

    def new(players: list[tuple[int | None, str]]) -> NewMatch:
        options = get_engine("solitaire-chess").parse_options({}, len(players))
        return NewMatch("solitaire-chess", options, alice.pk, "daily", players)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with transaction.atomic():
            matches = start_matches([new([(alice.pk, ""), (bob.pk, "")]), new([(carol.pk, ""), (None, "random")])])
    assert published == []  # nothing before the commit
    # before the callbacks: one of them plays the bot's move when the bot moves first (half the time)
    assert {m.revision for m in type(matches[0]).objects.filter(pk__in=[m.pk for m in matches])} == {1}
    for callback in callbacks:
        callback()
    assert sorted(p for p in published if p[0] == "match") == sorted(("match", m.pk, 1) for m in matches)
    assert sorted(p[1] for p in published if p[0] == "turns") == sorted([alice.pk, bob.pk, carol.pk])  # once each
    assert sorted(p[1] for p in published if p[0] == "bell") == sorted([alice.pk, bob.pk, carol.pk])
    assert published.count(("lobby",)) == 1
