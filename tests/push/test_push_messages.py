"""What a push says and how it is kept. The "finished" push says who won in a
sentence; every push carries a Topic per match (a device that was offline gets the latest only)."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from notifications.models import Kind, Notification
from push.payloads import push_payload
from tests.helpers import play_first_move, start_match, time_out
from tests.push_endpoint import PushEndpoint, device_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint():
    with PushEndpoint() as server:
        yield server


def finished_body(match: Match, user) -> str:
    return push_payload(Notification(match=match, recipient=user, kind=Kind.FINISHED, turn=match.version))["body"]


def test_the_finished_push_says_who_won(alice, bob, endpoint, django_capture_on_commit_callbacks):
    match = start_match(alice, [bob], options={"ruleset": "death", "advantage": "0"})  # alice moves first
    # alice chooses the order (a move: a timeout now is scored, not the abort of an unplayed match)
    match = play_first_move(match)
    late = match.seats.get(to_act=True).user
    winner = bob if late == alice else alice
    phones = {user: device_for(user, endpoint, user.username) for user in (alice, bob)}
    with django_capture_on_commit_callbacks(execute=True):
        time_out(match)  # the player to act runs out of time: in a Death Match they lose
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [1 if winner == bob else 0]
    [to_late] = endpoint.to(phones[late].endpoint)
    [to_winner] = endpoint.to(phones[winner].endpoint)
    assert to_late["payload"]["title"] == f"Solitaire Chess #{match.pk} is over"
    assert re.fullmatch(rf"{winner.username} won against you\b.*\.", to_late["payload"]["body"]), to_late["payload"]
    assert re.fullmatch(rf"You won against {late.username}\b.*\.", to_winner["payload"]["body"]), to_winner["payload"]
    assert "Against" not in to_late["payload"]["body"]


def finish(match: Match, winners: list[int], scores: list[int], draw: bool = False) -> Match:
    result = {"winners": winners, "scores": scores, "reason": "Adjudicated.", "draw": draw}
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result=result, end_reason="Adjudicated.")
    return Match.objects.get(pk=match.pk)


def test_a_multi_seat_finish_tells_each_their_place(alice, bob, carol):
    match = finish(start_match(alice, [bob, carol], game="dizzy-duo-battle"), winners=[2], scores=[3, 0, 5])
    assert finished_body(match, alice) == "carol won; you were 2nd. Adjudicated."
    assert finished_body(match, bob) == "carol won; you were 3rd. Adjudicated."
    assert finished_body(match, carol) == "You won against alice and bob. Adjudicated."


def test_a_team_win_and_a_draw(alice, bob, carol, make_user):
    dave = make_user("dave")
    match = start_match(alice, [bob, carol, dave], game="lizzy-ghosties")
    match = finish(match, winners=[0, 2], scores=[])
    assert finished_body(match, alice) == "You and carol won against bob and dave. Adjudicated."
    assert finished_body(match, bob) == "alice and carol won against you. Adjudicated."
    match = finish(match, winners=[], scores=[], draw=True)
    assert finished_body(match, dave) == "A draw. Adjudicated."


def test_a_running_match_says_no_result(alice, bob):
    """The audit renders every kind's push at every moment: before the end there is no result to tell."""
    match = start_match(alice, [bob])
    assert finished_body(match, alice) == "Against bob."


def test_the_finished_push_speaks_dutch(alice, bob, carol):
    alice.language = "nl"
    alice.save()
    match = finish(start_match(alice, [bob, carol], game="dizzy-duo-battle"), winners=[2], scores=[3, 0, 5])
    assert finished_body(match, alice).startswith("carol won; jij werd 2e.")
    match = finish(match, winners=[0], scores=[5, 0, 3])
    assert finished_body(match, alice).startswith("Jij won van bob en carol.")


def test_every_push_carries_the_topic_of_its_match(alice, bob, endpoint, django_capture_on_commit_callbacks):
    from notifications.service import notify

    match = start_match(alice, [bob])
    other = start_match(alice, [bob])
    device_for(bob, endpoint, "bob")
    with django_capture_on_commit_callbacks(execute=True):
        notify(match, bob, Kind.INVITED, 50)
        notify(match, bob, Kind.FINISHED, 51)
        notify(other, bob, Kind.INVITED, 50)
    topics = [push["headers"]["topic"] for push in endpoint.received]
    assert topics == [f"match-{match.pk}", f"match-{match.pk}", f"match-{other.pk}"]
    for topic in topics:  # RFC 8030: at most 32 characters of the URL-safe base64 alphabet
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,32}", topic)
