"""The board rendering cache: reused only for the same viewer and the same revision."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache

from games.models import Match
from tests.helpers import first_legal, post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db
TOKENS = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def without_tokens(html: str) -> str:
    return TOKENS.sub(r"\1", html)


@pytest.fixture
def board_cache(settings):
    settings.DIZZY_BOARD_CACHE_SECONDS = 30
    cache.clear()
    yield
    cache.clear()


def test_a_cached_board_is_never_served_to_another_viewer(board_cache, alice, bob, carol, client_for, client):
    match = start_match(alice, [bob])
    pages = {}
    for name, c in {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol)}.items():
        pages[name] = c.get(f"/matches/{match.pk}/").content.decode()
        again = c.get(f"/matches/{match.pk}/").content.decode()  # the cached copy: the same but for the token
        assert without_tokens(again) == without_tokens(pages[name])
    pages["anonymous"] = client.get(f"/matches/{match.pk}/").content.decode()
    mover = user_to_act(match).user.username
    assert "It is your turn." in pages[mover]
    for name in {"alice", "bob", "carol", "anonymous"} - {mover}:
        assert "It is your turn." not in pages[name] and 'name="move"' not in pages[name]
    assert "You are watching." in pages["carol"] and "You are watching." in pages["anonymous"]


def test_a_move_changes_the_key_so_the_next_page_is_fresh(board_cache, alice, bob, client_for):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    before = client_for(other).get(f"/matches/{match.pk}/").content.decode()
    post_move(client_for(mover), match, first_legal(match, match.seats.get(user=mover).number))
    after = client_for(other).get(f"/matches/{match.pk}/").content.decode()
    assert before != after and Match.objects.get(pk=match.pk).version == 1
    assert 'name="version" value="1"' in after


def test_each_viewer_gets_their_own_csrf_token_that_works(board_cache, alice, bob):
    from django.test import Client

    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    c = Client(enforce_csrf_checks=True)
    c.force_login(mover)
    c.get(f"/matches/{match.pk}/")  # fills the cache
    page = c.get(f"/matches/{match.pk}/").content.decode()  # served from it
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token and "placeholder" not in token
    import json

    move = json.dumps(first_legal(match, match.seats.get(user=mover).number))
    response = c.post(f"/matches/{match.pk}/move/", {"version": 0, "move": move, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Match.objects.get(pk=match.pk).version == 1
