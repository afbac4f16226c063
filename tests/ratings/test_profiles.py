"""Profiles, leaderboards, rematches and challenges."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import actions
from games.actions import SeatSpec
from games.models import Match
from ratings import views as ratings_views
from ratings.models import Pool, Rating
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def finish(match: Match, winner_user) -> None:
    actions.do_adjudicate(match.pk, [match.seats.get(user=winner_user).number], "test")


def test_profile_shows_name_record_ratings_chart_and_recent_matches(alice, bob, client):
    alice.display_name = "Alice the Bold"
    alice.save()
    for _ in range(2):
        finish(start_match(alice, [bob]), alice)
    finish(start_match(alice, [bob]), bob)
    page = client.get("/players/alice/").content.decode()
    assert "Alice the Bold" in page and "Member since" in page
    assert "3 finished matches" in page and "2 won" in page and "1 lost" in page
    assert "Solitaire Chess, against people" in page and "provisional" in page
    assert "<svg" in page and 'role="img"' in page and page.count("<path d=") >= 3  # one marker per match
    assert "triangle up: won" in page.lower() or "Triangle up: won" in page
    assert page.count("/replay/") >= 3


def test_head_to_head_against_the_viewer(alice, bob, carol, client_for):
    finish(start_match(alice, [bob]), alice)
    finish(start_match(alice, [bob]), bob)
    finish(start_match(alice, [carol]), alice)
    page = client_for(bob).get("/players/alice/").content.decode()
    assert "2 finished matches together; you won 1, alice won 1" in page
    assert "You and" not in client_for(alice).get("/players/alice/").content.decode()


def test_profile_says_nothing_of_running_matches(alice, bob, client_for, client):
    finished = start_match(alice, [bob])
    finish(finished, bob)
    running = start_match(alice, [bob])
    for c in (client, client_for(bob)):
        page = c.get("/players/alice/").content.decode()
        assert f"/matches/{running.pk}/" not in page and f"#{running.pk}<" not in page
        assert f"/matches/{finished.pk}/" in page


def test_a_hidden_profile_is_for_signed_in_visitors_only(alice, carol, client, client_for):
    alice.profile_hidden = True
    alice.save()
    response = client.get("/players/alice/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client_for(carol).get("/players/alice/").status_code == 200
    assert client.get("/players/nobody-here/").status_code == 404


def test_the_setting_hides_the_profile(alice, client_for):
    c = client_for(alice)
    assert 'name="profile_hidden"' in c.get("/settings/").content.decode()
    c.post("/settings/", {"display_name": "", "time_zone": "UTC", "profile_hidden": "on"})
    alice.refresh_from_db()
    assert alice.profile_hidden


def test_profile_challenge_opens_the_new_match_form_with_the_player_invited(alice, bob, client_for):
    page = client_for(alice).get("/players/bob/").content.decode()
    assert 'action="/matches/new/"' in page and 'name="invite" value="bob"' in page and "Challenge" in page
    form = client_for(alice).get("/matches/new/?game=dizzy-duo-battle&invite=bob").content.decode()
    assert 'value="bob"' in form


def test_leaderboard_lists_recently_active_rated_players_paginated(alice, bob, make_user, client):
    finish(start_match(alice, [bob]), alice)
    page = client.get("/leaderboards/solitaire-chess/?provisional=1").content.decode()  # new: provisional
    assert page.index("alice") < page.index("bob") and "provisional" in page
    Rating.objects.filter(user=bob).update(last_played=timezone.now() - timedelta(days=91))
    assert "/players/bob/" not in client.get("/leaderboards/solitaire-chess/?provisional=1").content.decode()
    for i in range(30):
        Rating.objects.create(
            game="solitaire-chess", pool=Pool.PEOPLE, user=make_user(f"p{i}"), last_played=timezone.now(), sigma=5
        )
    cache.clear()  # the counts are kept a minute (test_leaderboard_counts.py)
    first = client.get("/leaderboards/solitaire-chess/").content.decode()
    assert "Page 1 of 2" in first and 'rel="next"' in first
    assert "Page 2 of 2" in client.get("/leaderboards/solitaire-chess/?page=2").content.decode()
    assert client.get("/leaderboards/no-such-game/").status_code == 404
    assert client.get("/leaderboards/").status_code == 200


def test_leaderboard_shows_bot_levels_and_the_vs_bots_pool(alice, client):
    finish(start_match(alice, ["random"]), alice)
    people = client.get("/leaderboards/solitaire-chess/").content.decode()
    assert "Random bot" in people and "Nobody yet" in people  # alice is rated against bots only
    bots = client.get("/leaderboards/solitaire-chess/?pool=bots&provisional=1").content.decode()  # after one match
    assert "/players/alice/" in bots and "against bots" in bots


def test_rematch_same_seats_options_and_clock(alice, bob, client_for):
    match = actions.create_match(
        alice,
        "dizzy-duo-battle",
        [SeatSpec("bot", "random"), SeatSpec("me"), SeatSpec("invite", "bob")],
        options={"lives": 4},
        time_preset="custom",
        custom_clock=(3600, 2, 600),
        spectators_read_chat=True,
        rated=False,
    )
    actions.do_join(match.pk, bob)
    finish(match, bob)
    response = client_for(bob).post(f"/matches/{match.pk}/rematch/")
    again = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{again.pk}/"
    assert again.status == Match.Status.OPEN and again.created_by == bob
    assert again.options == match.options and not again.rated and again.spectators_read_chat
    assert (again.time_preset, again.turn_seconds, again.reserve_periods, again.period_seconds) == (
        "custom",
        3600,
        2,
        600,
    )
    seats = list(again.seats.order_by("number"))
    assert seats[0].bot_level == "random"
    assert seats[1].user == alice and not seats[1].accepted  # invited
    assert seats[2].user == bob and seats[2].accepted


def test_rematch_is_for_the_players_of_a_finished_match(alice, bob, carol, client_for):
    match = start_match(alice, [bob])
    client_for(alice).post(f"/matches/{match.pk}/rematch/")  # still running: refused
    finish(match, alice)
    client_for(carol).post(f"/matches/{match.pk}/rematch/")  # not a player: refused
    assert Match.objects.count() == 1
    assert client_for(alice).get(f"/matches/{match.pk}/rematch/").status_code == 405


def test_a_players_finished_matches_come_a_page_at_a_time_newest_first(alice, bob, client, monkeypatch):
    monkeypatch.setattr(ratings_views, "PLAYER_MATCHES_PAGE", 2)
    finished = []
    for _ in range(5):
        match = start_match(alice, [bob])
        finish(match, alice)
        finished.append(match.pk)
    running = start_match(alice, [bob])
    profile = client.get("/players/alice/").content.decode()
    assert 'href="/players/alice/matches/"' in profile
    seen, address = [], "/players/alice/matches/"
    while address:
        page = client.get(address).content.decode()
        seen.append(re.findall(r'<a href="/matches/(\d+)/">', page))
        older = re.search(r'href="(/players/alice/matches/\?before=\d+)" rel="next"', page)
        address = older and older.group(1)
    newest_first = [str(pk) for pk in reversed(finished)]
    assert seen == [newest_first[:2], newest_first[2:4], newest_first[4:]]
    assert str(running.pk) not in str(seen)


def test_a_players_finished_matches_of_one_game(alice, bob, client):
    chess, field = start_match(alice, [bob]), start_match(alice, [bob], game="doubting-flower-field")
    finish(chess, bob), finish(field, bob)
    page = client.get("/players/bob/matches/?game=doubting-flower-field").content.decode()
    assert f'href="/matches/{field.pk}/"' in page and f'href="/matches/{chess.pk}/"' not in page
    assert '<option value="doubting-flower-field" selected>' in page


@pytest.mark.parametrize(
    "query", ["before=abc", "before=-1", "before=1234567890123456789", "game=chess", "before=1%002"]
)
def test_a_bad_page_of_finished_matches_is_a_400(query, alice, client):
    response = client.get(f"/players/alice/matches/?{query}")
    assert response.status_code == 400


def test_a_hidden_players_finished_matches_are_for_signed_in_visitors(alice, carol, client, client_for):
    alice.profile_hidden = True
    alice.save()
    assert client.get("/players/alice/matches/").status_code == 302
    assert client_for(carol).get("/players/alice/matches/").status_code == 200


def test_a_deep_page_reads_as_few_queries_as_the_first(alice, bob, client, monkeypatch):
    monkeypatch.setattr(ratings_views, "PLAYER_MATCHES_PAGE", 2)
    for _ in range(6):
        finish(start_match(alice, [bob]), alice)
    oldest = Match.objects.filter(seats__user=alice).order_by("pk")[1].pk
    with CaptureQueriesContext(connection) as first:
        client.get("/players/alice/matches/")
    with CaptureQueriesContext(connection) as deep:
        client.get(f"/players/alice/matches/?before={oldest + 1}")
    assert len(deep) == len(first)
