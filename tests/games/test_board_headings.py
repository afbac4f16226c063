"""Small things seen on the way: the tab title on the board, the Solitaire Chess board's
headings and header cells, and `Cache-Control: private` on pages that depend on who asks. (The title
in the browser, the settings links' size and the focus are in tests/site/test_accessibility.py.)"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from api.models import ApiToken
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


def title_of(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1)


def test_the_board_title_says_your_turn_once_to_the_player_to_move_only(alice, bob, client_for):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    assert title_of(client_for(mover).get(f"/matches/{match.pk}/").content.decode()).count("Your turn") == 1
    assert "Your turn" not in title_of(client_for(other).get(f"/matches/{match.pk}/").content.decode())


def test_the_solitaire_chess_board_has_header_cells_and_no_skipped_heading_level(alice, bob, client_for):
    match = start_match(alice, [bob])
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    table = page.split('<table class="sc-board"')[1].split("</table>")[0]
    assert re.findall(r'<th scope="col">([a-j])</th>', table) == list("abcdefghij")
    assert re.findall(r'<th scope="row">(\d)</th>', table) == list("876543210")
    levels = [int(level) for level in re.findall(r"<h([1-6])\b", page)]
    assert levels[0] == 1
    skips = [(a, b) for a, b in zip(levels, levels[1:]) if b > a + 1]
    assert skips == [], f"heading levels {levels}"


def test_pages_that_depend_on_who_asks_are_private(alice, bob, client_for):
    match = start_match(alice, [bob])
    for url in (f"/matches/{match.pk}/", "/settings/", "/", "/inbox/"):
        response = client_for(alice).get(url)
        assert response.status_code == 200, url
        assert "private" in response["Cache-Control"], url
        assert "Cookie" in response["Vary"], url
    token = ApiToken.issue(alice, "test")[1]
    answer = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(f"/api/v1/matches/{match.pk}/view")
    assert answer.status_code == 200 and "private" in answer["Cache-Control"]
