"""Public pages: landing, games list, rules pages, and the dashboard's order."""

from __future__ import annotations

import pytest

from games import actions
from games.actions import SeatSpec
from games.engines.registry import GAMES
from games.models import Match
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


def test_landing_and_games_pages(client):
    assert "Sign up" in client.get("/").content.decode()
    page = client.get("/games/").content.decode()
    for name in GAMES.values():
        assert name in page


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_has_a_rules_page(client, slug):
    page = client.get(f"/games/{slug}/rules/")
    assert page.status_code == 200 and GAMES[slug] in page.content.decode()


def test_unknown_rules_page_is_404(client):
    assert client.get("/games/chess/rules/").status_code == 404


def test_unknown_match_is_404(client):
    assert client.get("/matches/999999/").status_code == 404


def test_dashboard_lists_your_turn_first(alice, bob, carol, client_for):
    started = start_match(alice, [bob])
    actions.create_match(carol, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "alice")])
    mover = user_to_act(started).user
    text = client_for(mover).get("/").content.decode()
    your_turn, rest = text.split("Your turn (1)")[1].split("Waiting for others", 1)
    assert f"/matches/{started.pk}/" in your_turn
    other = bob if mover == alice else alice
    other_text = client_for(other).get("/").content.decode()
    assert "Your turn (0)" in other_text
    waiting = other_text.split("Waiting for others")[1].split("</section>")[0]
    assert f"/matches/{started.pk}/" in waiting
    invitations = client_for(alice).get("/").content.decode().split("Invitations")[1].split("</section>")[0]
    assert "Solitaire Chess" in invitations


@pytest.mark.django_db
def test_a_finished_row_names_the_other_players_and_who_won(alice, bob, client_for):
    match = start_match(alice, [bob], game="doubting-flower-field")
    bob_seat = match.seats.get(user=bob).number
    actions.do_adjudicate(match.pk, [bob_seat], "test: out of lives")
    for viewer, other, result in ((alice, "bob", "Won by bob"), (bob, "alice", "You won")):
        page = client_for(viewer).get("/").content.decode()
        row = page[page.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]
        assert f"With {other}" in row and result in row
    dutch = client_for(alice).get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Gewonnen door bob" in dutch and "Met bob" in dutch


@pytest.mark.django_db
def test_an_open_seat_in_the_lobby_says_who_made_it_and_what_it_is(alice, bob, carol, client_for):
    match = actions.create_match(
        bob,
        "dizzy-duo-battle",
        [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot", "random")],
        options={"lives": 10, "lifeline": True},
    )
    page = client_for(alice).get("/").content.decode()
    row = page[page.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]
    assert "Created by bob" in row and "2 of 3 seats taken" in row
    assert "Daily" in row and ": 10" in row and "yes" in row  # the options it changes
    dutch = client_for(alice).get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Gemaakt door bob" in dutch and "2 van 3 plaatsen bezet" in dutch


def test_a_running_row_names_whom_it_is_played_against(alice, bob, client_for):
    """The seats' names as the match page writes them: two Normal bots at one table say their seats."""
    match = start_match(alice, [bob, "normal", "normal"], game="dizzy-duo-battle")
    bots = sorted(seat.number + 1 for seat in match.seats.all() if seat.bot_level)
    page = client_for(alice).get("/").content.decode()
    row = page[page.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]
    bot_names = ", ".join(f"Normal bot (seat {number})" for number in bots)
    assert "Against " in row and "alice" not in row
    assert set(row.split("Against ", 1)[1].split("<", 1)[0].split(", ")) == {"bob", *bot_names.split(", ")}
    theirs = client_for(bob).get("/").content.decode()
    assert "Against alice, " in theirs[theirs.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]
    dutch = client_for(alice).get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Tegen " in dutch[dutch.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]


def test_a_finished_rows_end_is_followed_by_one_full_stop(alice, bob, client_for):
    """The engines' ends are sentences ("... lives left."); the row went on with ". With bob": two."""
    match = start_match(alice, [bob])
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        result={"winners": [0]},
        end_reason="alice is the last player with lives left.",
        end_reason_words={"msg": "{player} is the last player with lives left.", "args": {"player": "{p0}"}},
    )
    for language, sentence in (("en", "lives left. With bob"), ("nl", "nog levens. Met bob")):
        page = client_for(alice).get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        row = page[page.index(f"/matches/{match.pk}/") :].split("</li>", 1)[0]
        assert sentence in row and ".." not in row, row


def test_an_invitations_row_names_who_sent_it(alice, bob, client_for):
    match = actions.create_match(
        bob, "lizzy-ghosties", [SeatSpec("me"), SeatSpec("invite", "alice"), SeatSpec("bot", "normal")]
    )
    page = client_for(alice).get("/").content.decode()
    invitations = page.split("Invitations</h2>")[1].split("</section>")[0]
    assert f"/matches/{match.pk}/" in invitations and "Invited by bob" in invitations
    dutch = client_for(alice).get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Uitgenodigd door bob" in dutch


def test_the_lobby_says_what_a_player_joins(alice, bob, client_for):
    """The board of an open match said only that it waits: not its clock, options or seats."""
    match = actions.create_match(
        bob,
        "dizzy-duo-battle",
        [SeatSpec("me"), SeatSpec("open"), SeatSpec("bot", "random")],
        options={"lives": 10, "lifeline": True},
    )
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    lobby = page.split('id="lobby-title"')[1].split("</section>")[0]
    assert "This match: Daily: 1 day a turn, 5 reserve days; " in lobby and "2 of 3 seats taken." in lobby
    dutch = client_for(alice).get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Deze partij: Dagelijks" in dutch and "2 van 3 plaatsen bezet." in dutch
