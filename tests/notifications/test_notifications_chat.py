"""A chat message reaches the match's other players as a notification kind of its
own ("chat" in the preferences grid): one unread entry per match and reader, whatever number of
messages follow; never to the writer, to a player who blocks the writer, or to a spectator."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.core import mail

from games import actions
from games.actions import SeatSpec
from moderation.actions import block_user, hide_message, post_chat
from notifications.models import Kind, Notification
from push.payloads import push_payload
from tests.helpers import start_match
from tests.push_endpoint import PushEndpoint, device_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def say(django_capture_on_commit_callbacks):
    def post(match, user, text="hello"):
        with django_capture_on_commit_callbacks(execute=True):
            return post_chat(match.pk, user, text)

    return post


def chat_rows(user) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind=Kind.CHAT).order_by("pk"))


def test_a_message_reaches_the_other_players_once_per_match_while_unread(alice, bob, carol, say, client_for):
    match = start_match(alice, [bob, carol], game="dizzy-duo-battle")
    with PushEndpoint() as endpoint:
        phones = {user: device_for(user, endpoint, user.username) for user in (alice, bob, carol)}
        mail.outbox.clear()
        first = say(match, bob, "good luck")
        say(match, bob, "and have fun")
        say(match, alice, "thanks")
        [to_alice], [to_carol] = chat_rows(alice), chat_rows(carol)
        assert to_carol.turn == first.pk and to_alice.turn == first.pk
        [to_bob] = chat_rows(bob)  # alice's message: bob is not told of his own
        assert to_bob.turn > first.pk
        assert len(endpoint.to(phones[carol].endpoint)) == 1 and len(endpoint.to(phones[bob].endpoint)) == 1
        push = endpoint.to(phones[carol].endpoint)[0]
        assert push["payload"]["title"] == f"Chat in Dizzy Duo Battle #{match.pk}"
        assert push["payload"]["body"] == "bob wrote a message."
        assert "good luck" not in str(push) and push["headers"]["topic"] == f"match-{match.pk}"
        # The unread entry now tells of everything since it was made.
        assert push_payload(to_carol)["body"] == "bob and alice wrote 3 messages."  # in the order they first wrote
        assert push_payload(to_alice)["body"] == "bob wrote 2 messages."
        chat_mails = [m for m in mail.outbox if m.subject.startswith("[Dizzysite] Chat in")]
        assert sorted(m.to[0] for m in chat_mails) == sorted([alice.email, bob.email, carol.email])
        # Once read, the next message makes a new entry.
        assert client_for(carol).post(f"/inbox/{to_carol.pk}/read/").status_code == 302
        say(match, bob, "your move")
        assert len(chat_rows(carol)) == 2 and len(chat_rows(alice)) == 1
        assert len(endpoint.to(phones[carol].endpoint)) == 2


def test_no_chat_notification_to_a_player_who_blocks_the_writer(alice, bob, carol, say):
    match = start_match(alice, [bob, carol], game="dizzy-duo-battle")
    block_user(carol, "bob")
    say(match, bob, "hi all")
    assert chat_rows(carol) == [] and len(chat_rows(alice)) == 1
    say(match, alice, "hi bob")
    [row] = chat_rows(carol)
    assert push_payload(row)["body"] == "alice wrote a message."  # bob's messages are not counted


def test_spectators_and_bots_hear_nothing(alice, bob, say, make_user):
    watcher = make_user("watcher")
    match = actions.create_match(
        alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("bot", "random")], spectators_read_chat=True
    )
    say(match, alice, "anyone?")
    assert Notification.objects.filter(kind=Kind.CHAT).count() == 0
    assert chat_rows(watcher) == []


def test_a_hidden_message_is_not_counted(alice, bob, say, make_user):
    moderator = make_user("mod", is_staff=True)
    match = start_match(alice, [bob])
    first = say(match, bob, "rude")
    say(match, bob, "sorry")
    hide_message(moderator, first.pk, "rude")
    [row] = chat_rows(alice)
    assert push_payload(row)["body"] == "bob wrote a message."


def test_chat_is_a_kind_in_the_preferences_grid(bob, client_for, say, alice):
    c = client_for(bob)
    page = c.get("/email/preferences/").content.decode()
    assert "New messages in a match&#x27;s chat" in page and 'name="push_chat"' in page
    form = {kind: "each" for kind in Kind.values if kind != "reminder"} | {"chat": "never"}
    assert c.post("/email/preferences/", form).status_code == 302  # push_chat unticked
    bob.refresh_from_db()
    assert bob.email_preferences["chat"] == "never" and bob.push_preferences["chat"] is False
    match = start_match(alice, [bob])
    with PushEndpoint() as endpoint:
        phone = device_for(bob, endpoint, "bob")
        mail.outbox.clear()
        say(match, alice, "hello")
        [row] = chat_rows(bob)  # still in the inbox
        assert row.status == Notification.Status.SKIPPED and endpoint.to(phone.endpoint) == []
        assert mail.outbox == []


def test_notifications_do_not_import_moderation():
    """moderation calls notifications when a message is posted: the other way round would be a circle."""
    for path in (Path(__file__).resolve().parents[2] / "notifications").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in getattr(node, "names", [])]
            module = getattr(node, "module", None) or ""
            assert not module.startswith("moderation") and not any(n.startswith("moderation") for n in names), path


def test_a_chat_notification_speaks_its_readers_language(alice, bob, carol, say):
    carol.language = "nl"
    carol.save()
    match = start_match(alice, [bob, carol], game="dizzy-duo-battle")
    mail.outbox.clear()
    say(match, alice, "hallo")
    say(match, bob, "hoi")
    [row] = chat_rows(carol)
    payload = push_payload(row)
    assert payload["title"] == f"Chat in Dizzy Duo Battle #{match.pk}"
    assert payload["body"] == "2 berichten van alice en bob."
    [message] = [m for m in mail.outbox if m.to == [carol.email]]
    assert f"Een bericht van alice in de chat van Dizzy Duo Battle #{match.pk}." in message.body
