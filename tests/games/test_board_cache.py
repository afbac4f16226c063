"""Each board is drawn once per viewer class and revision (games.board_cache): every tab of a seat and
every spectator get the drawing, and the fragment is the same as one drawn for them alone."""

from __future__ import annotations

import re

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client

from games import board_cache
from tests.helpers import first_legal, post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db
CSRF = re.compile(r'(csrfmiddlewaretoken" value=")[^"]+')


@pytest.fixture
def drawings(monkeypatch):
    """The templates the board cache draws, one entry a drawing."""
    drawn: list[str] = []
    original = board_cache.render_to_string

    def counting(template, context, **kwargs):
        drawn.append(template)
        return original(template, context, **kwargs)

    monkeypatch.setattr(board_cache, "render_to_string", counting)
    return drawn


def fragment(client: Client, match) -> str:
    response = client.get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return CSRF.sub(r"\1…", response.content.decode())


@pytest.mark.parametrize("game", ["dizzy-duo-battle", "solitaire-chess"])
def test_each_viewer_class_draws_the_board_once(game, alice, bob, make_user, client_for, drawings):
    match = start_match(alice, [bob], game=game)
    tabs = [client_for(alice), client_for(alice)]
    for tab in tabs:
        fragment(tab, match)
    assert len(drawings) == 1  # the second tab of the seat is served the first one's drawing
    fragment(client_for(bob), match)
    assert len(drawings) == 2  # the other seat sees other cards or other moves
    fragment(client_for(make_user("carol")), match)
    fragment(Client(), match)
    fragment(client_for(make_user("dave")), match)
    assert len(drawings) == 3  # every spectator and visitor share one

    seat = user_to_act(match)
    assert post_move(client_for(seat.user), match, first_legal(match, seat.number)).status_code == 302
    match.refresh_from_db()
    fragment(tabs[0], match)
    fragment(tabs[1], match)
    assert len(drawings) == 4  # a new revision, drawn again, once for both tabs


@pytest.mark.parametrize("game", ["dizzy-duo-battle", "lizzy-ghosties", "doubting-flower-field", "solitaire-chess"])
def test_a_served_board_is_the_one_drawn_for_that_viewer(game, alice, bob, carol, make_user, client_for):
    """Warm the cache with every other viewer's board, then compare each viewer's fragment with the one
    it gets from an empty cache."""
    others = [bob, carol] if game == "lizzy-ghosties" else [bob]
    match = start_match(alice, others, game=game)
    viewers = {user.username: client_for(user) for user in [alice, *others, make_user("watcher")]}
    viewers["visitor"] = Client()
    with time_machine.travel("2026-11-20 12:00Z", tick=False):
        warm = {name: fragment(client, match) for name, client in viewers.items()}
        for name, client in viewers.items():
            cache.clear()
            assert fragment(client, match) == warm[name], name
    assert warm[alice.username] != warm[bob.username]


def test_the_board_is_drawn_in_the_readers_language(alice, bob, make_user, client_for, drawings):
    match = start_match(alice, [bob], game="solitaire-chess")
    english = fragment(client_for(make_user("reader_en", language="en")), match)
    dutch = fragment(client_for(make_user("reader_nl", language="nl")), match)
    assert len(drawings) == 2
    assert 'aria-label="Solitaire Chess board"' in english
    assert 'aria-label="Solitaire Chess board"' not in dutch


def test_a_board_changed_without_a_new_revision_is_drawn_again(alice, bob, client_for, drawings):
    """The key is what the board shows, not the revision: a state changed in place (an admin's
    repair) is drawn afresh."""
    match = start_match(alice, [bob], game="solitaire-chess")
    client = client_for(alice)
    before = fragment(client, match)
    state = {**match.state, "in_hand": [1, 1]}
    type(match).objects.filter(pk=match.pk).update(state=state)
    after = fragment(client, match)
    assert len(drawings) == 2
    assert before != after
