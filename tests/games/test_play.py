"""Playing a match through the pages: a seated player, the other player and an outsider."""

from __future__ import annotations

import json

import pytest

from games.engines.registry import get_engine
from games.models import Match, Move
from tests.helpers import first_legal, post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):
    return start_match(alice, [bob])


def players(match, alice, bob):
    """(the user to act, the other user)."""
    mover = user_to_act(match).user
    return (mover, bob if mover == alice else alice)


def test_seated_player_moves_and_the_version_advances(match, alice, bob, client_for):
    mover, _ = players(match, alice, bob)
    seat = match.seats.get(user=mover).number
    move = first_legal(match, seat)
    response = post_move(client_for(mover), match, move)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.version == 1
    assert Move.objects.get(match=match).payload == move


def test_move_with_htmx_returns_the_fresh_board_fragment(match, alice, bob, client_for):
    mover, _ = players(match, alice, bob)
    move = first_legal(match, match.seats.get(user=mover).number)
    response = post_move(client_for(mover), match, move, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert response.status_code == 200
    assert text.lstrip().startswith('<div id="board"') and "<html" not in text
    assert 'name="version" value="1"' in text or "Move history" in text


def test_the_other_player_cannot_move_out_of_turn(match, alice, bob, client_for):
    mover, other = players(match, alice, bob)
    move = first_legal(match, match.seats.get(user=mover).number)
    response = post_move(client_for(other), match, move)
    assert response.status_code == 400 and "not your turn" in response.content.decode()
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.exists()


def test_an_outsider_cannot_move(match, alice, bob, carol, client_for):
    mover, _ = players(match, alice, bob)
    move = first_legal(match, match.seats.get(user=mover).number)
    response = post_move(client_for(carol), match, move)
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.version == 0


def test_anonymous_move_redirects_to_login_and_changes_nothing(match, alice, bob, client):
    mover, _ = players(match, alice, bob)
    response = post_move(client, match, first_legal(match, match.seats.get(user=mover).number))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    match.refresh_from_db()
    assert match.version == 0


def test_a_repeated_submission_applies_once(match, alice, bob, client_for):
    mover, _ = players(match, alice, bob)
    move = first_legal(match, match.seats.get(user=mover).number)
    c = client_for(mover)
    assert post_move(c, match, move, version=0).status_code == 302
    again = post_move(c, match, move, version=0)
    assert again.status_code == 409 and "board has changed" in again.content.decode()
    match.refresh_from_db()
    assert match.version == 1 and Move.objects.count() == 1


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "[]",
        '{"no": "type"}',
        '{"type": "teleport"}',
        '{"type": "move", "from": "zz", "to": 3}',
        json.dumps({"type": "place", "to": "x" * 5000}),
    ],
)
def test_malformed_moves_get_a_clear_error_and_change_nothing(match, alice, bob, client_for, raw):
    mover, _ = players(match, alice, bob)
    before = json.dumps(Match.objects.get(pk=match.pk).state, sort_keys=True)
    response = client_for(mover).post(f"/matches/{match.pk}/move/", {"version": 0, "move": raw})
    assert response.status_code == 400
    assert '<p class="error" role="alert">' in response.content.decode()
    match.refresh_from_db()
    assert match.version == 0 and json.dumps(match.state, sort_keys=True) == before


def test_bad_version_field_is_a_stale_board(match, alice, bob, client_for):
    mover, _ = players(match, alice, bob)
    move = first_legal(match, match.seats.get(user=mover).number)
    response = client_for(mover).post(f"/matches/{match.pk}/move/", {"version": "abc", "move": json.dumps(move)})
    assert response.status_code == 409
    match.refresh_from_db()
    assert match.version == 0


def test_move_needs_post(match, alice, client_for):
    assert client_for(alice).get(f"/matches/{match.pk}/move/").status_code == 405


def test_idle_poll_is_204_and_a_change_returns_the_fragment(match, alice, bob, client_for):
    c = client_for(alice)
    url = f"/matches/{match.pk}/?since={match.revision}"
    assert c.get(url, HTTP_HX_REQUEST="true").status_code == 204
    mover, _ = players(match, alice, bob)
    post_move(client_for(mover), match, first_legal(match, match.seats.get(user=mover).number))
    changed = c.get(url, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and changed.content.decode().lstrip().startswith('<div id="board"')


def test_board_page_for_each_viewer(match, alice, bob, carol, client_for, client):
    mover, other = players(match, alice, bob)
    assert "It is your turn." in client_for(mover).get(f"/matches/{match.pk}/").content.decode()
    assert "Waiting for" in client_for(other).get(f"/matches/{match.pk}/").content.decode()
    assert "You are watching." in client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    anonymous = client.get(f"/matches/{match.pk}/")
    assert anonymous.status_code == 200 and "You are watching." in anonymous.content.decode()
    # Only the player to act gets move buttons.
    assert 'name="move"' in client_for(mover).get(f"/matches/{match.pk}/").content.decode()
    assert 'name="move"' not in client_for(other).get(f"/matches/{match.pk}/").content.decode()


def test_no_page_shows_the_seed_or_the_generator(match, alice, bob, carol, client_for):
    """Ruling ALL-2: the seed never reaches a page, not even in attributes or comments."""
    match.refresh_from_db()
    for user in (alice, bob, carol):
        text = client_for(user).get(f"/matches/{match.pk}/").content.decode()
        assert match.seed not in text and match.state["rng"]["seed"] not in text


def test_move_history_in_plain_words(match, alice, bob, client_for):
    mover, _ = players(match, alice, bob)
    post_move(client_for(mover), match, first_legal(match, match.seats.get(user=mover).number))
    text = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    history = text.split("Move history")[1]
    assert mover.username in history and "{p" not in history


def test_a_bot_seat_to_act_first_moves_after_the_commit(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(alice, ["random"], options={"advantage": "1"})  # the bot chooses the order
    match.refresh_from_db()
    engine = get_engine(match.game)
    # The bot moved (as many decisions as its turn took) and it is the human's turn.
    assert Move.objects.filter(match=match, by_bot=True, seat=1).count() == match.version >= 1
    assert match.seats.get(number=1).to_act is False
    assert engine.to_act(match.state) == [0]


def test_a_bot_seat_answers_the_humans_move(alice, client_for, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(alice, ["random"], options={"advantage": "0"})  # alice chooses the order
    match.refresh_from_db()
    assert match.version == 0 and get_engine(match.game).to_act(match.state) == [0]
    with django_capture_on_commit_callbacks(execute=True):
        post_move(client_for(alice), match, {"type": "order", "first": False})  # the bot is to place first
    match.refresh_from_db()
    assert Move.objects.filter(match=match, by_bot=False).count() == 1
    assert Move.objects.filter(match=match, by_bot=True, seat=1).exists()
    assert get_engine(match.game).to_act(match.state) == [0]


def test_the_setup_hint_does_not_offer_moving_pieces(alice, bob, client_for):
    """Solitaire Chess: while pieces are placed, the board asks for a placement only; once every
    piece is in and the play starts, the hint offers to select a piece."""
    match = start_match(alice, [bob], options={"advantage": "0"})
    c = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    engine = get_engine(match.game)
    post_move(c[alice.pk], match, {"type": "order", "first": True})
    for _ in range(30):
        match.refresh_from_db()
        if match.state["phase"] != "setup":
            break
        mover = user_to_act(match)
        page = c[mover.user_id].get(f"/matches/{match.pk}/").content.decode()
        assert "Place a piece on a marked grey square." in page
        assert "select one of your pieces" not in page.lower()
        post_move(c[mover.user_id], match, engine.legal_moves(match.state, mover.number)[0])
    assert match.state["phase"] == "play"
    mover = user_to_act(match)
    page = c[mover.user_id].get(f"/matches/{match.pk}/").content.decode()
    assert "select one of your pieces" in page.lower()


@pytest.mark.slow
def test_a_whole_match_against_a_bot_to_the_result(alice, client_for, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(alice, ["random"])
    c = client_for(alice)
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        with django_capture_on_commit_callbacks(execute=True):
            response = post_move(c, match, first_legal(match, 0))
        assert response.status_code == 302, response.content.decode()[:500]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["reason"]
    page = c.get(f"/matches/{match.pk}/").content.decode()
    board = page.split('<div id="board"')[1]
    assert "Finished" in page and "hx-trigger" not in board.split(">")[0]  # the finished board stops polling
    # Moves after the end are refused.
    response = post_move(c, match, {"type": "place", "to": "a1"})
    assert response.status_code == 409 and "over" in response.content.decode()  # a conflict


def test_the_poll_keeps_a_half_built_selection(match, alice, client_for):
    """A refresh while the player is selecting (cells, a piece) must not throw the selection away."""
    page = client_for(alice).get(f"/matches/{match.pk}/?select=a%3AB3").content.decode()
    poll = page.split('<div id="board"')[1].split(">")[0]
    assert f'hx-get="/matches/{match.pk}/?since={match.revision}&amp;select=a%3AB3"' in poll


def test_the_losing_side_of_a_final_move_race_gets_409(match, alice, bob, client_for):
    """The match ended between loading the board and moving (defect 8): a conflict with the
    current state, 409 as for a stale board, on the board and in the API; nothing changes."""
    from django.test import Client

    from api.models import ApiToken
    from games import actions

    mover = user_to_act(match).user
    seat = match.seats.get(user=mover).number
    move, version = first_legal(match, seat), match.version
    actions.do_adjudicate(match.pk, [seat], "the other side won the race")
    response = post_move(client_for(mover), match, move, version=version)
    assert response.status_code == 409 and "This match is over." in response.content.decode()
    api = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(mover, 'race')[1]}")
    answer = api.post(
        f"/api/v1/matches/{match.pk}/moves",
        json.dumps({"version": version, "move": move}),
        content_type="application/json",
    )
    assert answer.status_code == 409 and answer.json()["detail"] == "This match is over."
    assert Move.objects.filter(match=match).count() == 0
