"""Whoever is to move when a match starts hears it once (inbox, email, push);
the player whose own request started it is at the board and hears nothing more."""

from __future__ import annotations

import pytest
from django.core import mail

from games import actions
from games.actions import SeatSpec
from notifications.models import Kind, Notification
from push.models import PushSubscription
from tests.push_endpoint import PushEndpoint, b64url

pytestmark = pytest.mark.django_db

FIRST, SECOND = {"advantage": "0"}, {"advantage": "1"}  # who chooses the order, so moves first


@pytest.fixture
def endpoint():
    with PushEndpoint() as server:
        yield server


def device_for(user, endpoint: PushEndpoint, name: str) -> PushSubscription:
    url, keys = endpoint.new_device(name)
    return PushSubscription.objects.create(
        user=user, endpoint=url, p256dh=keys.p256dh, auth=b64url(keys.auth), label="Test browser"
    )


def rows_of(user) -> list[tuple[str, int]]:
    return sorted(Notification.objects.filter(recipient=user).values_list("kind", "turn"))


def test_the_creator_to_move_hears_when_the_invitee_joins(alice, bob, endpoint, django_capture_on_commit_callbacks):
    alices_phone = device_for(alice, endpoint, "alice")
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(
            alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], options=FIRST
        )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_join(match.pk, bob)
    match.refresh_from_db()
    assert match.seats.get(to_act=True).user == alice  # seat 0 opens Solitaire Chess
    assert rows_of(alice) == [(Kind.YOUR_TURN, 0)]  # once: not "started" as well
    assert rows_of(bob) == [(Kind.INVITED, 0), (Kind.STARTED, 0)]
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]  # her turn, his start
    [turn_mail] = [m for m in mail.outbox if m.to == [alice.email]]
    assert turn_mail.subject == f"[Dizzysite] Your turn in Solitaire Chess #{match.pk}"
    [push] = endpoint.to(alices_phone.endpoint)
    assert push["payload"]["title"] == f"Your turn in Solitaire Chess #{match.pk}"
    assert "Inbox: 1" in _bell(alice)


def _bell(user) -> str:
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c.get("/inbox/bell/").content.decode()


def test_the_first_move_after_the_start_notifies_the_other_player_once(alice, bob):
    from games.engines.registry import get_engine

    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], options=FIRST)
    actions.do_join(match.pk, bob)
    match.refresh_from_db()
    engine = get_engine(match.game)
    while match.seats.get(user=alice).to_act:
        actions.do_move(match.pk, alice, match.version, engine.legal_moves(match.state, 0)[0])
        match.refresh_from_db()
    assert rows_of(alice) == [(Kind.YOUR_TURN, 0)]
    assert [kind for kind, _ in rows_of(bob)].count(Kind.YOUR_TURN) == 1


def test_a_creator_who_starts_the_match_hears_nothing(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(
            alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("bot", "random")], options=FIRST
        )
    match.refresh_from_db()
    assert match.status == match.Status.ACTIVE and match.seats.get(number=0).to_act
    assert rows_of(alice) == [] and mail.outbox == []


def test_the_creator_not_to_move_hears_that_it_started(alice, bob):
    """bob's seat opens: the join that starts it tells the waiting creator that it started."""
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], options=SECOND)
    actions.do_join(match.pk, bob)
    match.refresh_from_db()
    assert match.seats.get(to_act=True).user == bob
    assert rows_of(alice) == [(Kind.STARTED, 0)]
    assert rows_of(bob) == [(Kind.INVITED, 0), (Kind.STARTED, 0)]  # the joiner: as before


def test_live_matches_tell_the_start_not_the_turn(alice, bob):
    seats = [SeatSpec("me"), SeatSpec("invite", "bob")]
    match = actions.create_match(alice, "solitaire-chess", seats, options=FIRST, time_preset="live")
    actions.do_join(match.pk, bob)
    assert rows_of(alice) == [(Kind.STARTED, 0)]


def test_bots_hear_nothing_and_a_three_seat_start_tells_each_player_once(alice, bob, carol):
    match = actions.create_match(
        alice,
        "dizzy-duo-battle",
        [SeatSpec("me"), SeatSpec("invite", "bob"), SeatSpec("bot", "random"), SeatSpec("invite", "carol")],
    )
    actions.do_join(match.pk, bob)
    actions.do_join(match.pk, carol)
    match.refresh_from_db()
    to_move = {seat.user_id for seat in match.seats.filter(to_act=True)}
    for user in (alice, bob, carol):
        kinds = [kind for kind, turn in rows_of(user) if turn == 0 and kind != Kind.INVITED]
        expected = Kind.YOUR_TURN if user.pk in to_move and user != carol else Kind.STARTED
        assert kinds == [expected], user
