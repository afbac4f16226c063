"""Issue 19, done when: in Dutch, the pages of a whole match of each game show a player no English word.

Each game whose package carries its Dutch words (games/engines/<game>/locale) is played from its first
move to its end through the real action, with random legal moves, by players who read Dutch. The
new-match form and the lobby, every seat's board page along the way and at the end (its text, and the
labels a screen reader speaks), then the replay, the history, the
dashboard, the inbox, a profile and the leaderboard are read for English words. Names
are not words: the games' names, the site's and the players' are taken out first.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings

from games import actions
from games.actions import SeatSpec
from games.engines.registry import GAMES, SPECS, get_engine
from games.models import Match
from tests.test_i18n import ENGLISH_WORDS

pytestmark = pytest.mark.django_db

# English words of the four games' boards and logs that Dutch does not share (not "over", "plant",
# "score", "extra" or "die", which are Dutch words too).
GAME_WORDS = set(
    """
    attack attacks attacked attacking power blind pile draw draws drew drawn discard discards discarded
    hands lives life lost wins won loses winner winners round rounds turn turns pass passes passed
    ghost ghosts lizzy's taken take takes tries try flower flowers field fields hide hides hidden claim
    claims claimed challenge challenges challenged empty cell cells row column yellow purple
    white blue red green orange colour color planted plants grow reveal revealed shows shown
    bluff liar honest truth true false points ends ended game because after before
    out time timed resigned resign aborted adjudicated player players opponent everyone nobody
    head heads body bodies tail tails dots stripes steal stole stolen give gave burn burned burning
    double doubles golden gold cycle showdown attempt attempts event events loaned stack stacks side
    pick picked grab grabs throw threw incomplete valid invalid chain choice left face down top
    moved plays still standing plantings successful failed accepted accept exploded cancelled petals
    full again undone named chosen selected only unselect remove add up hiding pointed thin five
    four eight solid dashed outline outlined below claiming planter equal diamonds held keeps fight
    fights fought battle battles defender attacker lifeline table shuffled dealt began fewest needs
    allowed must discarding turning identical same different colours patterns special
    """.split()
)
SPOKEN_ATTRIBUTES = {"aria-label", "alt", "title", "placeholder", "aria-description"}
NAMES = ("Dizzysite", "speler")


class ReadableText(HTMLParser):
    """The words of a page a player sees or hears: text outside scripts and styles, and spoken labels."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        self.parts.extend(value or "" for name, value in attrs if name in SPOKEN_ATTRIBUTES)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def english_texts(page: str) -> dict[str, set[str]]:
    """The page's texts that hold English words, with those words."""
    reader = ReadableText()
    reader.feed(page)
    found = {}
    for text in reader.parts:
        for name in (*GAMES.values(), *NAMES):
            text = text.replace(name, " ")
        words = {word.lower() for word in re.findall(r"[A-Za-z']+", text)} & (ENGLISH_WORDS | GAME_WORDS)
        if words:
            found[" ".join(text.split())] = words
    return found


def dutch_players(make_user, count: int) -> list:
    return [make_user(f"speler{number}", language="nl") for number in range(count)]


def assert_dutch(page: str, where: str) -> None:
    assert 'lang="nl"' in page, where
    leftover = english_texts(page)
    assert leftover == {}, f"English words on {where}: {leftover}"


def read_every_board(match: Match, clients: dict[int, object]) -> None:
    for seat, client in clients.items():
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert_dutch(page, f"seat {seat}'s board at version {match.version}")


def games_with_dutch_words() -> list[str]:
    packages = {path.parent.name for path in (settings.BASE_DIR / "games" / "engines").glob("*/locale")}
    return [slug for slug, spec in SPECS.items() if type(spec.engine).__module__.split(".")[2] in packages]


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
