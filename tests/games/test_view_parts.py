"""The chat (moderation) and the rating changes (ratings) reach a viewer's PlayerView through parts
the apps register, not through games importing them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games import actions, presenters
from games.models import Match
from moderation.actions import post_chat
from moderation.presenters import chat_part
from ratings.presenters import rating_part
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def test_both_apps_registered_their_part_once():
    assert presenters._view_parts.count(chat_part) == 1
    assert presenters._view_parts.count(rating_part) == 1


def test_players_read_the_chat_a_stranger_not_and_a_finished_match_shows_its_rating_changes(alice, bob, carol):
    match = start_match(alice, [bob])
    post_chat(match.pk, bob, "good luck")
    match = Match.objects.get(pk=match.pk)
    mine = presenters.player_view(match, alice)
    assert [m["text"] for m in mine.chat] == ["good luck"] and mine.can_chat
    assert presenters.player_view(match, carol).chat is None  # the match keeps its chat to its players
    assert mine.rating_changes == []
    actions.do_resign(match.pk, alice)
    finished = presenters.player_view(Match.objects.get(pk=match.pk), AnonymousUser())
    assert sorted(c.seat for c in finished.rating_changes) == [0, 1]
