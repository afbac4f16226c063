"""The leaderboard's counts ("Page X of Y", the provisional players) are kept a minute: a
reader paging through does not count every active rating of the game on each page."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings.models import Pool, Rating

pytestmark = pytest.mark.django_db


def counting_queries(client, path: str) -> tuple[list[str], str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"].upper()], response.content.decode()


def test_the_counts_are_read_once_a_minute_and_pages_still_say_where_they_are(make_user, client):
    for i in range(30):
        Rating.objects.create(
            game="solitaire-chess", pool=Pool.PEOPLE, user=make_user(f"p{i}"), last_played=timezone.now(), sigma=5
        )
    first, page = counting_queries(client, "/leaderboards/solitaire-chess/")
    assert len(first) == 1 and "Page 1 of 2" in page
    again, page = counting_queries(client, "/leaderboards/solitaire-chess/?page=2")
    assert again == [] and "Page 2 of 2" in page
    other_pool, _ = counting_queries(client, "/leaderboards/solitaire-chess/?pool=bots")
    assert len(other_pool) == 1  # each game and pool has its own counts
    for i in range(30, 60):
        Rating.objects.create(
            game="solitaire-chess", pool=Pool.PEOPLE, user=make_user(f"p{i}"), last_played=timezone.now(), sigma=5
        )
    cache.clear()  # as a minute later
    after, page = counting_queries(client, "/leaderboards/solitaire-chess/")
    assert len(after) == 1 and "Page 1 of 3" in page
