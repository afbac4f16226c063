"""A replay names players in the third person unless the reader is that player (defect 4).

After the end everything is public (ALL-3), the private log entries too ("You drew the red stripes
head."), and `?seat=N` lays the board out from seat N's side. Neither may speak to a reader as if they
were a player they are not: a visitor, a spectator, or a player looking from another seat."""

from __future__ import annotations

import re
from html import unescape

import pytest

from games.engines.registry import available_engines
from tests.helpers import play_against_random_bots

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SECOND_PERSON = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)
LABELS = re.compile(r'(?:aria-label|title|alt)="([^"]*)"')


def replay_words(page: str) -> list[str]:
    """The replay's own words (the board and the moves), text and spoken labels, one per line."""
    body = page.split('<div class="replay">', 1)[1].split("</ol>", 1)[0]
    labels = [unescape(label) for label in LABELS.findall(body)]
    text = unescape(re.sub(r"<[^>]+>", "\n", body))
    return [line.strip() for line in [*text.splitlines(), *labels] if line.strip()]


def second_person(page: str) -> list[str]:
    return [line for line in replay_words(page) if SECOND_PERSON.search(line)]


@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_a_reader_without_a_seat_is_never_called_you(slug, alice, client, django_capture_on_commit_callbacks):
    match = play_against_random_bots(alice, slug, django_capture_on_commit_callbacks)
    url = f"/matches/{match.pk}/replay/"
    seats = match.seats.count()
    checked = []
    # Every position seen from the last seat (the issue's ?seat=1), the end from every side and none.
    queries = [f"?at={at}&seat={seats - 1}" for at in range(match.version + 1)]
    queries += ["?seat="] + [f"?seat={seat}" for seat in range(seats)]
    for query in queries:
        response = client.get(url + query)
        assert response.status_code == 200, query
        found = second_person(response.content.decode())
        assert not found, (query, found[:5])
        checked.append(query)
    assert len(checked) == len(queries)


def test_a_player_reads_their_own_words_from_any_side(alice, client_for, django_capture_on_commit_callbacks):
    """alice (seat 0) reads her own private entries as hers ("You drew ...") wherever the board is laid
    out from; the seat she looks from is named, never "you"."""
    match = play_against_random_bots(alice, "dizzy-duo-battle", django_capture_on_commit_callbacks)
    own = [
        entry
        for move in match.moves.all()
        for entry in move.log
        if entry.get("audience") == [0] and entry.get("msg") == "You drew {card}."
    ]
    assert own, "alice drew no card from the blind pile in this match"
    page = client_for(alice).get(f"/matches/{match.pk}/replay/?seat=1").content.decode()
    words = replay_words(page)
    assert any(line.startswith("You drew") or " You drew " in line for line in words)
    bot = match.seats.get(number=1).public_name
    drew = [line for line in words if f"{bot} drew" in line]
    assert drew, f"the bot's private draws are named ({bot} drew ...)"
    board = page.split('<div class="replay">', 1)[1].split('<section class="history', 1)[0]
    board_text = " ".join(unescape(re.sub(r"<[^>]+>", " ", board)).split())
    assert f"{bot} (you)" not in board_text and "alice (you)" in board_text


def test_the_third_person_reads_in_dutch(alice, client, django_capture_on_commit_callbacks):
    match = play_against_random_bots(alice, "dizzy-duo-battle", django_capture_on_commit_callbacks)
    page = client.get(f"/matches/{match.pk}/replay/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in page
    words = replay_words(page)
    assert any(" trok " in line for line in words), "a private draw reads as someone's, in Dutch"
    assert not any(re.search(r"\b(Je|je|Jij|jij|jouw|Jouw)\b", line) for line in words), "no 'je' to a visitor"
