"""Chat, reports, blocks, and moderators' actions (all logged, all through the actions)."""

from __future__ import annotations

import pytest

from games import actions
from games.actions import SeatSpec
from games.models import Match
from moderation.models import ChatMessage, ModerationLog, Report
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user("mod", is_staff=True, is_superuser=True)


@pytest.fixture
def match(alice, bob):
    return start_match(alice, [bob])


def test_players_chat_and_see_it_others_do_not(match, alice, bob, carol, client_for, client):
    response = client_for(alice).post(f"/matches/{match.pk}/chat/", {"text": "good luck <b>bob</b>"})
    assert response.status_code == 302
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "good luck &lt;b&gt;bob&lt;/b&gt;" in page  # escaped
    assert "good luck" not in client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    assert "good luck" not in client.get(f"/matches/{match.pk}/").content.decode()
    # An outsider cannot write.
    assert client_for(carol).post(f"/matches/{match.pk}/chat/", {"text": "hi"}).status_code == 302
    assert ChatMessage.objects.count() == 1


def test_spectators_read_the_chat_when_the_match_allows(alice, bob, carol, client_for):
    match = actions.create_match(
        alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], spectators_read_chat=True
    )
    actions.do_join(match.pk, bob)
    client_for(bob).post(f"/matches/{match.pk}/chat/", {"text": "hello watchers"})
    page = client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    assert "hello watchers" in page and 'name="text"' not in page  # reads, cannot write


def test_chat_with_htmx_returns_the_board_and_refuses_empty(match, alice, client_for):
    c = client_for(alice)
    ok = c.post(f"/matches/{match.pk}/chat/", {"text": "hi"}, HTTP_HX_REQUEST="true")
    assert ok.status_code == 200 and ok.content.decode().lstrip().startswith('<div id="board"')
    empty = c.post(f"/matches/{match.pk}/chat/", {"text": "   "}, HTTP_HX_REQUEST="true")
    assert empty.status_code == 400 and "Write something first" in empty.content.decode()
    too_long = c.post(f"/matches/{match.pk}/chat/", {"text": "x" * 501}, HTTP_HX_REQUEST="true")
    assert too_long.status_code == 400 and ChatMessage.objects.count() == 1


def test_report_then_moderator_hides_the_message(match, alice, bob, staff, client_for):
    actions_match = match
    client_for(alice).post(f"/matches/{actions_match.pk}/chat/", {"text": "rude words"})
    message = ChatMessage.objects.get()
    client_for(bob).post(f"/chat/{message.pk}/report/", {"reason": "rude"})
    client_for(bob).post(f"/chat/{message.pk}/report/", {"reason": "again"})  # once per reporter
    client_for(alice).post(f"/chat/{message.pk}/report/")  # not one's own
    assert Report.objects.count() == 1
    report = Report.objects.get()
    queue = client_for(staff).get("/admin/moderation/report/?status__exact=open").content.decode()
    assert "rude words" in queue
    client_for(staff).post(
        "/admin/moderation/report/",
        {"action": "hide_messages", "_selected_action": [report.pk], "apply": "1", "reason": "insult"},
    )
    message.refresh_from_db()
    report.refresh_from_db()
    assert message.hidden and report.status == Report.Status.HIDDEN
    assert "rude words" not in client_for(bob).get(f"/matches/{actions_match.pk}/").content.decode()
    log = ModerationLog.objects.get(action="hide message")
    assert log.moderator == staff and log.reason == "insult" and log.target_user == alice


def test_a_blocked_user_cannot_invite_you_or_join_your_matches(alice, bob, carol, client_for):
    client_for(alice).post("/players/carol/block/")
    with pytest.raises(actions.ActionError, match="does not accept"):
        actions.create_match(carol, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "alice")])
    open_match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    with pytest.raises(actions.ActionError, match="cannot join"):
        actions.do_join(open_match.pk, carol)
    actions.do_join(open_match.pk, bob)  # others still can
    assert "carol" in client_for(alice).get("/settings/").content.decode()
    client_for(alice).post("/players/carol/unblock/")
    actions.create_match(carol, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "alice")])


@pytest.mark.parametrize(
    "seats, status, handed", [("bots", Match.Status.ACTIVE, True), ("abort", Match.Status.ABORTED, False)]
)
def test_suspension_locks_the_user_out_and_handles_their_matches(
    match, alice, bob, staff, client_for, seats, status, handed
):
    lobby = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    c = client_for(staff)
    c.post(
        "/admin/accounts/user/",
        {
            "action": "suspend",
            "_selected_action": [alice.pk],
            "apply": "1",
            "days": "7",
            "seats": seats,
            "reason": "abuse",
        },
    )
    alice.refresh_from_db()
    assert not alice.is_active and alice.suspended_until is not None and not alice.banned
    lobby.refresh_from_db()
    match.refresh_from_db()
    assert lobby.status == Match.Status.CANCELLED
    assert match.status == status  # a bot in alice's seat plays on (the bot moves after the commit)
    seat = match.seats.get(user=alice)
    assert seat.handed_to_bot is handed and bool(seat.bot_level) is handed
    assert client_for(alice).get("/settings/").status_code == 302  # logged out: inactive
    assert ModerationLog.objects.filter(target_user=alice, reason="abuse").exists()


def test_ban_and_lift(alice, staff, client_for):
    c = client_for(staff)
    c.post(
        "/admin/accounts/user/",
        {"action": "ban", "_selected_action": [alice.pk], "apply": "1", "seats": "bots", "reason": "cheating"},
    )
    alice.refresh_from_db()
    assert alice.banned and not alice.is_active
    c.post(
        "/admin/accounts/user/", {"action": "lift", "_selected_action": [alice.pk], "apply": "1", "reason": "appeal"}
    )
    alice.refresh_from_db()
    assert alice.is_active and not alice.banned


def test_adjudicate_goes_through_the_action_and_notifies(match, alice, bob, staff, client_for):
    c = client_for(staff)
    c.post(
        "/admin/games/match/",
        {"action": "adjudicate", "_selected_action": [match.pk], "apply": "1", "winners": "9", "reason": "x"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # seat 9 does not exist: refused
    c.post(
        "/admin/games/match/",
        {
            "action": "adjudicate",
            "_selected_action": [match.pk],
            "apply": "1",
            "winners": "1",
            "reason": "opponent left",
        },
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [1]
    assert not match.seats.filter(to_act=True).exists()
    assert ModerationLog.objects.filter(match=match, action__startswith="adjudicate").exists()


def test_staff_replay_move_by_move_is_logged(match, alice, bob, staff, client_for):
    from games.engines.registry import get_engine

    mover = user_to_act(match).user
    seat = match.seats.get(user=mover).number
    actions.do_move(match.pk, mover, 0, get_engine(match.game).legal_moves(match.state, seat)[0])
    c = client_for(staff)
    page = c.get(f"/admin/games/match/{match.pk}/replay/?n=0").content.decode()
    assert "State after move 0 of 1" in page
    page = c.get(f"/admin/games/match/{match.pk}/replay/?n=1").content.decode()
    assert "State after move 1 of 1" in page
    assert client_for(alice).get(f"/admin/games/match/{match.pk}/replay/").status_code == 302
    c.get(f"/admin/games/match/{match.pk}/change/")
    assert ModerationLog.objects.filter(moderator=staff, match=match).count() == 3


def test_hiding_a_message_read_before_a_move_still_raises_the_revision(match, alice, bob, staff, monkeypatch):
    """The moderator's action reads the message (and its match) without the match's row lock; a
    move committed in between must not make the revision repeat or go back (idle polls compare it)."""
    from moderation import actions as moderation

    message = ChatMessage.objects.create(match=match, author=alice, text="rude words")
    stale = ChatMessage.objects.select_related("match").get(pk=message.pk)  # read before the move
    mover = user_to_act(match)
    actions.do_move(match.pk, mover.user, 0, actions.engine_of(match).legal_moves(match.state, mover.number)[0])
    after_move = Match.objects.get(pk=match.pk).revision
    assert after_move > stale.match.revision

    class StaleQuery:
        def select_for_update(self):
            return self

        def get(self, pk):
            return stale

    monkeypatch.setattr(moderation.ChatMessage, "objects", StaleQuery())
    moderation.hide_message(staff, message.pk, "insult")
    assert Match.objects.get(pk=match.pk).revision == after_move + 1


def test_every_writer_raises_the_revision_by_one_from_what_is_stored(match, alice):
    """Two copies of a match read at the same revision, each saved as a board change: no repeat."""
    first, second = Match.objects.get(pk=match.pk), Match.objects.get(pk=match.pk)
    start = first.revision
    actions.save_board_change(first, fields=[])
    actions.save_board_change(second, fields=[])
    assert (first.revision, second.revision) == (start + 1, start + 2)
    assert Match.objects.get(pk=match.pk).revision == start + 2


@pytest.mark.parametrize(("language", "written"), [("en", "Sun 1 Mar, 22:05 NZDT"), ("nl", "zo 1 mrt, 22:05 NZDT")])
def test_a_chat_line_says_when_in_the_sites_date_style(alice, bob, client_for, language, written):
    """The chat wrote "1 Mar 22:05" of its own, in no zone and with an English capital in Dutch."""
    import zoneinfo
    from datetime import datetime

    bob.language, bob.time_zone = language, "Pacific/Auckland"
    bob.save()
    match = start_match(alice, [bob])
    client_for(alice).post(f"/matches/{match.pk}/chat/", {"text": "good luck"})
    ChatMessage.objects.update(created=datetime(2026, 3, 1, 9, 5, tzinfo=zoneinfo.ZoneInfo("UTC")))
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert f'<span class="muted">{written}</span>: good luck' in page
