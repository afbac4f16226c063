"""The lobby: create, invite, join, leave, fill seats with bots, cancel, start when full."""

from __future__ import annotations

import pytest

from games import actions
from games.actions import SeatSpec
from games.models import Match
from tests.helpers import create_page_data

pytestmark = pytest.mark.django_db


def test_create_form_lists_the_games_options(alice, client_for):
    page = client_for(alice).get("/matches/new/?game=solitaire-chess")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="option_ruleset"' in text and "Final Match" in text and 'name="time_preset"' in text


def test_create_with_an_open_seat_waits_for_a_player(alice, carol, client_for):
    response = client_for(alice).post("/matches/new/", create_page_data())
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.status == Match.Status.OPEN and match.state is None
    # Anyone may take the open seat; the match then starts by itself.
    page = client_for(carol).get(f"/matches/{match.pk}/")
    assert "Join this match" in page.content.decode()
    client_for(carol).post(f"/matches/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.state is not None
    assert sorted(s.user.username for s in match.seats.all()) == ["alice", "carol"]


def test_invited_player_sees_the_invitation_and_accepts(alice, bob, client_for):
    client_for(alice).post("/matches/new/", create_page_data(seat_1="invite", invite_1="bob"))
    match = Match.objects.get()
    dashboard = client_for(bob).get("/").content.decode()
    assert f"/matches/{match.pk}/" in dashboard.split("Invitations")[1].split("</section>")[0]
    assert "Accept the invitation" in client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    client_for(bob).post(f"/matches/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_invite_of_unknown_user_is_refused_and_creates_nothing(alice, client_for):
    response = client_for(alice).post("/matches/new/", create_page_data(seat_1="invite", invite_1="nobody"))
    assert response.status_code == 400
    assert "no player called" in response.content.decode()
    assert not Match.objects.exists()


def test_bad_option_is_refused(alice, client_for):
    response = client_for(alice).post("/matches/new/", create_page_data(option_ruleset="chaos"))
    assert response.status_code == 400 and not Match.objects.exists()


def test_a_bot_seat_fills_the_match_and_it_starts(alice, client_for):
    client_for(alice).post("/matches/new/", create_page_data(seat_1="bot:random"))
    match = Match.objects.get()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(number=1).bot_level == "random"


def test_unverified_user_cannot_create_or_join(make_user, alice, client_for):
    dave = make_user("dave", verified=False)
    response = client_for(dave).post("/matches/new/", create_page_data())
    assert response.status_code == 400 and "verify your email" in response.content.decode()
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    client_for(dave).post(f"/matches/{match.pk}/join/")
    assert match.seats.filter(user=dave).count() == 0


def test_leave_before_start_opens_the_seat(alice, bob, carol, client_for):
    match = actions.create_match(
        alice,
        "solitaire-chess",
        [
            SeatSpec("me"),
            SeatSpec("open"),
        ][:2],
    )
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")])
    client_for(bob).post(f"/matches/{match.pk}/leave/")  # declines the invitation
    seat = match.seats.get(number=1)
    assert seat.user is None and seat.is_open


def test_creator_fills_a_seat_with_a_bot_after_creating(alice, carol, client_for):
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    # An outsider may not change seats.
    client_for(carol).post(f"/matches/{match.pk}/seats/1/", {"kind": "bot:random"})
    assert match.seats.get(number=1).is_open
    client_for(alice).post(f"/matches/{match.pk}/seats/1/", {"kind": "bot:random"})
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_cancel_only_by_creator_and_only_before_start(alice, bob, client_for):
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")])
    client_for(bob).post(f"/matches/{match.pk}/cancel/")
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    client_for(alice).post(f"/matches/{match.pk}/cancel/")
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    client_for(bob).post(f"/matches/{match.pk}/join/")
    assert not match.seats.get(number=1).accepted


def test_cannot_join_a_full_or_started_match(alice, bob, carol, client_for):
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("bot", "random")])
    response = client_for(carol).post(f"/matches/{match.pk}/join/", follow=True)
    assert "not taking players" in response.content.decode()
    assert match.seats.filter(user=carol).count() == 0


def test_lobby_actions_need_post_and_login(alice, client):
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    assert client.get(f"/matches/{match.pk}/join/").status_code == 405
    response = client.post(f"/matches/{match.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert match.seats.get(number=1).is_open
