"""In Dutch, the pages of a whole match of each game show a player no English word.

Each game whose package carries its Dutch words (games/engines/<game>/locale) is played from its first
move to its end through the real action, with random legal moves, by players who read Dutch. The
new-match form and the lobby, every seat's board page along the way and at the end (its text, and the
labels a screen reader speaks), then the replay, the history, the
dashboard, the inbox, a profile and the leaderboard are read for English words. Names
are not words: the games' names, the site's and the players' are taken out first.
"""

from __future__ import annotations

import random

import pytest

from games import actions
from games.actions import SeatSpec
from games.engines.registry import get_engine
from games.models import Match
from tests.dutch_words import assert_dutch, games_with_dutch_words

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def dutch_players(make_user, count: int) -> list:
    return [make_user(f"speler{number}", language="nl") for number in range(count)]


def read_every_board(match: Match, clients: dict[int, object]) -> None:
    for seat, client in clients.items():
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert_dutch(page, f"seat {seat}'s board at version {match.version}")


@pytest.mark.parametrize("game", games_with_dutch_words())
def test_a_whole_match_shows_no_english_word_to_dutch_players(game, make_user, client_for):
    engine = get_engine(game)
    users = dutch_players(make_user, engine.min_players)
    creator = client_for(users[0])
    assert_dutch(creator.get(f"/matches/new/?game={game}").content.decode(), "the new-match form")
    seats = [SeatSpec("me")] + [SeatSpec("invite", user.username) for user in users[1:]]
    match = actions.create_match(users[0], game, seats)
    assert_dutch(creator.get(f"/matches/{match.pk}/").content.decode(), "the lobby")
    for user in users[1:]:
        actions.do_join(match.pk, user)
    match.refresh_from_db()
    clients = {seat.number: client_for(seat.user) for seat in match.seats.select_related("user")}
    by_seat = {seat.number: seat.user for seat in match.seats.select_related("user")}
    rng = random.Random(19)
    read_every_board(match, clients)
    for played in range(1, engine.max_moves(engine.min_players, match.options) + 1):
        seat = engine.to_act(match.state)[0]
        actions.do_move(match.pk, by_seat[seat], match.version, rng.choice(engine.legal_moves(match.state, seat)))
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if played % 5 == 0:
            read_every_board(match, clients)
    assert match.status == Match.Status.FINISHED
    read_every_board(match, clients)
    for page in ("replay", "history"):
        assert_dutch(clients[0].get(f"/matches/{match.pk}/{page}/").content.decode(), f"the {page}")
    for address in ("/", "/inbox/", f"/players/{users[0].username}/", f"/leaderboards/{game}/"):
        assert_dutch(clients[0].get(address).content.decode(), address)
