"""The notifications prompt is the match page's own panel, hidden until push.js shows it once after
a move: below the board and never in the board's swapped fragment (so no move pushes the board down),
only for the match's players, and never on a finished match."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from tests.helpers import start_match

pytestmark = pytest.mark.django_db

QUESTION = "Shall this device tell you when it is your turn again?"


def page(client, match: Match, **headers) -> str:
    return client.get(f"/matches/{match.pk}/", **headers).content.decode()


def test_a_player_of_a_running_match_gets_the_hidden_prompt_below_the_board(alice, bob, client_for):
    match = start_match(alice, [bob])
    html = page(client_for(alice), match)
    assert html.count('id="push-prompt"') == 1 and QUESTION in html
    tag = re.search(r'<section id="push-prompt"[^>]*>', html).group(0)
    assert re.search(r"\shidden[\s>]", tag), tag  # shown by push.js after a move, not on page load
    assert html.index('id="board"') < html.index('id="push-prompt"')
    assert html.index('id="push-prompt"') < html.index('id="notes"')


def test_the_board_fragment_never_holds_the_prompt(alice, bob, client_for):
    match = start_match(alice, [bob])
    c = client_for(alice)
    fragment = page(c, match, HTTP_HX_REQUEST="true")
    assert 'id="board"' in fragment and "push-prompt" not in fragment and QUESTION not in fragment
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    fragment = page(c, match, HTTP_HX_REQUEST="true")
    assert "data-over" in fragment and "push-prompt" not in fragment and QUESTION not in fragment


def test_a_finished_match_and_a_watcher_get_no_prompt(alice, bob, carol, client_for):
    match = start_match(alice, [bob])
    assert "push-prompt" not in page(client_for(carol), match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    html = page(client_for(alice), match)
    assert 'id="board"' in html and "push-prompt" not in html and QUESTION not in html


def test_the_prompt_speaks_dutch(alice, bob, client_for):
    match = start_match(alice, [bob])
    html = page(client_for(alice), match, HTTP_ACCEPT_LANGUAGE="nl")
    assert "Zal dit apparaat je laten weten wanneer je weer aan de beurt bent?" in html
    assert "Laat het me weten" in html and "Nu niet" in html and 'aria-label="Meldingen"' in html
