"""Hints in practice matches: an unrated match against a bot, in a game of open information, shows
on request what the Normal bot would play from the player's own view; rated matches say hints are
off; asking changes nothing."""

from __future__ import annotations

import html
import json
import re

import pytest

from games.engines.registry import get_engine
from games.models import Match
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def _practice(alice, *, rated: bool, game="solitaire-chess", options=None):
    match = start_match(alice, ["normal"], game, options=options or {"advantage": "0"})
    Match.objects.filter(pk=match.pk).update(rated=rated)
    match.refresh_from_db()
    return match


def test_a_practice_match_offers_a_hint_and_marks_a_legal_move(alice, client_for):
    match = _practice(alice, rated=False)
    client = client_for(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Show a hint" in page and f'href="/matches/{match.pk}/?hint=1"' in page
    hinted = client.get(f"/matches/{match.pk}/?hint=1").content.decode()
    taught = html.unescape(re.search(r'data-taught="([^"]*)"', hinted).group(1))
    assert json.loads(taught) in get_engine(match.game).legal_moves(match.state, 0)
    assert "Hint: the normal bot, seeing only what you see, would play this: go" in hinted
    buttons = [html.unescape(value) for value in re.findall(r'name="move" value="([^"]*)"', hinted)]
    assert taught in buttons  # the marked move is one the board offers
    match.refresh_from_db()
    assert match.version == Match.objects.get(pk=match.pk).version == 0  # asking moved nothing


def test_a_rated_match_says_hints_are_off(alice, client_for):
    match = _practice(alice, rated=True)
    page = client_for(alice).get(f"/matches/{match.pk}/?hint=1").content.decode()
    assert "Hints are off in rated matches." in page
    assert "data-taught" not in page and "Show a hint" not in page


def test_no_hint_against_a_person_or_in_a_game_of_hidden_information(alice, bob, client_for):
    against_bob = start_match(alice, [bob], options={"advantage": "0"})
    Match.objects.filter(pk=against_bob.pk).update(rated=False)
    assert "Show a hint" not in client_for(alice).get(f"/matches/{against_bob.pk}/").content.decode()
    flowers = _practice(alice, rated=False, game="doubting-flower-field")
    page = client_for(alice).get(f"/matches/{flowers.pk}/?hint=1").content.decode()
    assert "Show a hint" not in page and "data-taught" not in page and "Hints are off" not in page
