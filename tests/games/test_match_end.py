"""Ruling ALL-3: after the end everything is public, however the match ended: by the rules, on
time, aborted or adjudicated by a moderator (the admin's actions), aborted by a ban. The board's
view, the history (page and board) and the result email all show what the rules hid during play."""

from __future__ import annotations

import html
import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import actions
from games.i18n import entry_text_for
from games.models import Match, fill_names
from games.presenters import history_page, player_view
from games.tasks import sweep_deadlines
from notifications.emails import build_email
from notifications.models import Kind, Notification
from notifications.tasks import email_context
from tests.helpers import play_first_move, start_match

pytestmark = pytest.mark.django_db

GAME = "dizzy-duo-battle"  # hands, the blind pile and blind draws are hidden during play


@pytest.fixture
def staff(make_user):
    return make_user("mod", is_staff=True, is_superuser=True)


def play_random_moves(match: Match, users: dict[int, object], count: int, seed: int = 1) -> Match:
    """Random legal moves through the real action, until `count` are played or the match ends."""
    rng = random.Random(seed)
    engine = actions.engine_of(match)
    for _ in range(count):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = engine.to_act(match.state)[0]
        actions.do_move(match.pk, users[seat], match.version, rng.choice(engine.legal_moves(match.state, seat)))
    match.refresh_from_db()
    return match


def mid_game(alice, bob) -> Match:
    """A Dizzy Duo Battle match a few turns in: blind draws are in the log, meant for their taker only."""
    match = start_match(alice, [bob], game=GAME)
    match = play_random_moves(match, {0: alice, 1: bob}, 12)
    assert match.status == Match.Status.ACTIVE
    assert any(entry["audience"] != "all" for move in match.moves.all() for entry in move.log)
    return match


def end_by_result(match, alice, bob, staff, client_for) -> None:
    Match.objects.filter(pk=match.pk).update(state={**match.state, "lives": [1, 1]})  # a short game from here
    play_random_moves(match, {0: alice, 1: bob}, 2000)


def end_by_admin_abort(match, alice, bob, staff, client_for) -> None:
    data = {"action": "abort_matches", "_selected_action": [match.pk], "apply": "1", "reason": "asked"}
    client_for(staff).post("/admin/games/match/", data)


def end_by_admin_adjudication(match, alice, bob, staff, client_for) -> None:
    data = {"action": "adjudicate", "_selected_action": [match.pk], "apply": "1", "reason": "left", "winners": "1"}
    client_for(staff).post("/admin/games/match/", data)


def end_by_ban_with_abort(match, alice, bob, staff, client_for) -> None:
    data = {"action": "ban", "_selected_action": [alice.pk], "apply": "1", "seats": "abort", "reason": "cheat"}
    client_for(staff).post("/admin/accounts/user/", data)


def end_by_suspension_with_abort(match, alice, bob, staff, client_for) -> None:
    data = {"action": "suspend", "_selected_action": [alice.pk], "apply": "1", "days": "3", "seats": "abort"}
    client_for(staff).post("/admin/accounts/user/", {**data, "reason": "abuse"})


ENDINGS = {
    "result": (end_by_result, Match.Status.FINISHED),
    "admin abort": (end_by_admin_abort, Match.Status.ABORTED),
    "admin adjudication": (end_by_admin_adjudication, Match.Status.FINISHED),
    "ban, matches aborted": (end_by_ban_with_abort, Match.Status.ABORTED),
    "suspension, matches aborted": (end_by_suspension_with_abort, Match.Status.ABORTED),
}


def assert_everything_public(match: Match, viewers: list) -> None:
    engine = actions.engine_of(match)
    every_text = [entry["text"] for move in match.moves.order_by("number") for entry in move.log]
    for user in viewers:
        pv = player_view(match, user)
        assert pv.view["hands"] == match.state["hands"] and pv.view["blind"] == match.state["blind"]
        assert all(entry["took"] is not None for entry in pv.view["history"])  # every blind draw
        assert pv.view == engine.view(match.state, pv.seat, ended=True)
        history = [text for _, texts in history_page(match, user).history for text in texts]
        assert len(history) == len(every_text)


@pytest.mark.slow
@pytest.mark.parametrize("way", sorted(ENDINGS))
def test_every_way_a_match_ends_makes_everything_public(way, alice, bob, carol, staff, client_for):
    match = mid_game(alice, bob)
    end, status = ENDINGS[way]
    end(match, alice, bob, staff, client_for)
    match.refresh_from_db()
    assert match.status == status
    bob = type(bob).objects.get(pk=bob.pk)
    assert_everything_public(match, [bob, carol, AnonymousUser()])
    # The history page shows every entry to an outsider, the ones meant for one player too.
    page = html.unescape(client_for(carol).get(f"/matches/{match.pk}/history/").content.decode())
    hidden = [e for m in match.moves.all() for e in m.log if e["audience"] != "all"]
    assert hidden
    names = match.seat_names()
    for entry in hidden:  # in the third person: carol sits at no seat
        assert fill_names(entry_text_for(entry, None), names) in page


def test_the_result_email_of_an_adjudicated_match_shows_what_was_hidden(alice, bob, staff, client_for):
    match = mid_game(alice, bob)
    last = match.moves.order_by("-number").first()
    end_by_admin_adjudication(match, alice, bob, staff, client_for)
    match.refresh_from_db()
    row = Notification.objects.get(recipient=alice, kind=Kind.FINISHED, match=match)
    context = email_context(row)
    assert len(context["last_texts"]) == len(last.log)  # the whole last move, what bob alone saw too
    build_email(alice, Kind.FINISHED, context)  # renders


def test_a_match_lost_on_time_makes_everything_public(alice, bob, carol):
    """Doubting Flower Field: a late player loses (its seed); the hidden flowers are then shown."""
    match = play_first_move(start_match(alice, [bob], game="doubting-flower-field"))  # scored, not aborted
    late = match.seats.filter(to_act=True).first()  # both hide their flowers now: one of them is late
    past = timezone.now() - timedelta(minutes=1)
    match.seats.update(reserve_left=0)
    match.seats.filter(pk=late.pk).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    assert sweep_deadlines() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    for user in (carol, AnonymousUser()):
        view = player_view(match, user).view
        assert view["phase"] == "over" and "all_hidden" in view


def test_the_board_of_an_aborted_match_draws_every_hidden_flower(alice, bob, carol, staff, client_for):
    """Doubting Flower Field: both players hid their flowers, then a moderator aborted the match;
    an outsider's board page now draws both players' hidden flowers."""
    match = start_match(alice, [bob], game="doubting-flower-field")
    users = {0: alice, 1: bob}
    engine = actions.engine_of(match)
    for _ in range(3):  # the order choice, then both hide their two flowers
        match.refresh_from_db()
        seat = engine.to_act(match.state)[0]
        actions.do_move(match.pk, users[seat], match.version, engine.legal_moves(match.state, seat)[0])
    match.refresh_from_db()
    assert all(match.state["hidden"]) and match.state["phase"] != "hide"
    end_by_admin_abort(match, alice, bob, staff, client_for)
    page = html.unescape(client_for(carol).get(f"/matches/{match.pk}/").content.decode())
    for seat, user in users.items():
        assert f"ff-hid-seat-{seat}" in page
        for flower in match.state["hidden"][seat]:
            assert f"{user.username}'s hidden {flower['colour']} flower" in page
