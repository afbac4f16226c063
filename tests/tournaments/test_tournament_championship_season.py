"""A championship: sign-up, the first season's divisions, a whole season played (matches ended by
the games' own adjudication), promotion and relegation, and the next season starting by itself."""

from __future__ import annotations

import pytest

from games import actions as games
from games.models import Match
from tournaments import championship_actions as actions
from tournaments.models import Championship, Tournament
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(make_user):
    admin = make_user("admin", is_staff=True)
    return Championship.objects.create(game="solitaire-chess", division_size=4, promote=1, organiser=admin)


def division_users(season) -> list[list[str]]:
    return [
        list(division.entries.order_by("seed").values_list("user__username", flat=True))
        for division in season.divisions.order_by("division")
    ]


@pytest.mark.slow
def test_a_season_with_promotion_relegation_and_the_next_season_by_itself(championship, make_user):
    players = [make_user(f"p{n}") for n in range(8)]
    for player in players:
        actions.do_join_championship(championship.pk, player)
    with pytest.raises(actions.ActionError):
        actions.do_join_championship(championship.pk, players[0])
    sweep_tournaments()  # the first season starts by itself
    season = championship.seasons.get()
    assert division_users(season) == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]
    assert Match.objects.count() == 12  # two round robins of four: six matches each, all at once
    assert actions.do_start_season_if_due(championship.pk) == ""  # the season is being played
    newcomer = make_user("late")
    actions.do_join_championship(championship.pk, newcomer)
    actions.do_leave_championship(championship.pk, players[5])
    # The lower-seeded player loses every match: places follow the seeds.
    for match in Match.objects.filter(status=Match.Status.ACTIVE):
        seeds = {s.number: s.user.tournament_entries.get(tournament__season=season).seed for s in match.seats.all()}
        games.do_adjudicate(match.pk, [min(seeds, key=seeds.get)], "test: the higher seed wins")
    sweep_tournaments()  # the divisions finish
    assert set(season.divisions.values_list("status", flat=True)) == {Tournament.Status.FINISHED}
    sweep_tournaments()  # the next season starts
    second = championship.seasons.get(number=2)
    season.refresh_from_db()
    assert season.ended is not None
    top, bottom = division_users(second)
    # Level 2's winner goes up; level 1 would send two down (one for each division below), but with
    # a single division below only one came up, and the top division stays full: only the last goes down.
    assert top == ["p0", "p4", "p1", "p2"]
    assert bottom[-1] == "late" and "p5" not in top + bottom
    assert actions.do_start_season_if_due(championship.pk) == ""


def test_the_championship_page_sign_up_and_leave(championship, alice, bob, client, client_for):
    page = client.get(f"/championships/{championship.pk}/").content.decode()
    assert "Solitaire Chess championship" in page and "Log in to sign up." in page
    assert "/championships/" in client.get("/tournaments/").content.decode()
    assert client.post(f"/championships/{championship.pk}/join/").status_code == 302  # to the login
    assert not championship.members.exists()
    assert "starts once two players have signed up" in client.get(f"/championships/{championship.pk}/").content.decode()
    for player in (alice, bob):
        assert client_for(player).post(f"/championships/{championship.pk}/join/").status_code == 302
    waiting = client.get(f"/championships/{championship.pk}/").content.decode()
    assert "starts once two players" not in waiting and "starts within a minute" in waiting
    assert client_for(bob).post(f"/championships/{championship.pk}/join/").status_code == 400
    assert client_for(bob).get(f"/championships/{championship.pk}/join/").status_code == 405
    sweep_tournaments()
    page = client_for(alice).get(f"/championships/{championship.pk}/").content.decode()
    division = championship.seasons.get().divisions.get()
    assert "Season 1" in page and f'href="/tournaments/{division.pk}/"' in page and "2 players signed up." in page
    assert client_for(alice).post(f"/championships/{championship.pk}/leave/").status_code == 302
    assert client_for(alice).post(f"/championships/{championship.pk}/leave/").status_code == 400
    assert client.get("/championships/999999/").status_code == 404
    client.cookies["django_language"] = "nl"
    assert "Seizoen 1" in client.get(f"/championships/{championship.pk}/").content.decode()


def test_tied_first_places_send_exactly_promote_up_the_higher_rated_first(championship, make_user):
    """Three players share first place in the lower division (every tie-break equal: the same rank);
    with "promote 1" exactly one goes up, the higher rated."""
    from tournaments.models import Entry

    players = [make_user(f"p{n}") for n in range(8)]
    for player in players:
        actions.do_join_championship(championship.pk, player)
    sweep_tournaments()
    season = championship.seasons.get()
    top, bottom = season.divisions.order_by("division")
    for division, places in ((top, [1, 2, 3, 4]), (bottom, [1, 1, 1, 4])):
        entries = list(division.entries.order_by("seed"))
        for entry, place, rating in zip(entries, places, [1500, 1510, 1600, 1400], strict=True):
            Entry.objects.filter(pk=entry.pk).update(place=place, rating=rating)
    Match.objects.update(status=Match.Status.ABORTED)
    season.divisions.update(status=Tournament.Status.FINISHED)
    assert actions.do_start_season_if_due(championship.pk) == "started"
    next_top, next_bottom = division_users(championship.seasons.get(number=2))
    # p6 (rated 1600) goes up alone, not p4 and p5 who tied with it; the top sends its last two down
    # and stays full from the top: p5, now second of the division below (1510 over p4's 1500), fills it.
    assert sorted(next_top) == ["p0", "p1", "p5", "p6"]
    assert sorted(next_bottom) == ["p2", "p3", "p4", "p7"]
