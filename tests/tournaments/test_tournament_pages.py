"""Tournament pages: the list (filtered by game), a tournament's page read by anyone, join and leave
by POST with CSRF, the organiser's form, and the Dutch words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions as games
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def open_tournament(organiser, **changes) -> Tournament:
    chosen = {
        "name": "Flower Monday",
        "game": "doubting-flower-field",
        "format": Tournament.Format.ROUND_ROBIN,
        "starts_at": timezone.now() + timedelta(days=2),
        "min_entrants": 2,
    }
    return actions.do_create(organiser, TournamentSettings(**{**chosen, **changes}))


def running_round_robin(alice, bob, carol) -> Tournament:
    tournament = open_tournament(alice, name="Chess Cup", game="solitaire-chess")
    for player in (alice, bob, carol):
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.do_start_if_due(tournament.pk)
    return tournament


def test_the_list_shows_each_section_and_filters_by_game(alice, client):
    flowers = open_tournament(alice)
    chess = open_tournament(alice, name="Chess Cup", game="solitaire-chess")
    page = client.get("/tournaments/").content.decode()
    assert "Upcoming" in page and "Running" in page and "Finished" in page
    assert flowers.name in page and chess.name in page
    filtered = client.get("/tournaments/?game=solitaire-chess").content.decode()
    assert chess.name in filtered and flowers.name not in filtered
    assert client.get("/tournaments/?game=<nonsense>").status_code == 200


def test_the_site_navigation_links_the_list(client):
    assert 'href="/tournaments/"' in client.get("/tournaments/").content.decode()


def test_anyone_reads_a_running_tournament_with_pairings_crosstable_and_match_links(alice, bob, carol):
    tournament = running_round_robin(alice, bob, carol)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    match = tournament.round_set.get(number=1).tables.exclude(match=None).get().match
    assert f'href="/matches/{match.pk}/"' in page
    assert "Crosstable" in page and "Round 1" in page and "Bye" in page
    assert '<th scope="col">Buchholz</th>' in page
    assert "How the standings are ranked" in page
    assert match.seed not in page
    assert "Enter this tournament" not in page  # running: no entry form


def test_join_and_leave_by_post_with_csrf(alice, bob, client_for):
    tournament = open_tournament(alice)
    client = client_for(bob)
    assert client.get(f"/tournaments/{tournament.pk}/join/").status_code == 405  # no GET changes state
    assert "Enter this tournament" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    response = client.post(f"/tournaments/{tournament.pk}/join/")
    assert response.status_code == 302 and Entry.objects.filter(tournament=tournament, user=bob).exists()
    again = client.post(f"/tournaments/{tournament.pk}/join/")
    assert again.status_code == 400 and "You have entered this tournament already." in again.content.decode()
    assert "Leave this tournament" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client.post(f"/tournaments/{tournament.pk}/leave/").status_code == 302
    assert not Entry.objects.filter(tournament=tournament, user=bob).exists()
    assert client.post("/tournaments/999999/join/").status_code == 404


def test_the_join_form_needs_its_csrf_token(alice, bob):
    tournament = open_tournament(alice)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob)
    assert strict.post(f"/tournaments/{tournament.pk}/join/").status_code == 403
    page = strict.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    assert not Entry.objects.exists()


def test_anonymous_readers_are_asked_to_log_in_to_join(alice, client):
    tournament = open_tournament(alice)
    assert "Log in to enter." in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    response = client.post(f"/tournaments/{tournament.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Entry.objects.exists()


def test_the_organisers_form_creates_a_tournament(alice, client_for):
    client = client_for(alice)
    assert client.get("/tournaments/new/").status_code == 200
    start = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Spring Swiss",
        "game": "solitaire-chess",
        "format": "swiss",
        "time_preset": "daily",
        "starts_at": start,
        "rounds": 4,
        "table_size": 4,
        "min_entrants": 4,
        "max_entrants": 16,
    }
    response = client.post("/tournaments/new/", data)
    tournament = Tournament.objects.get(name="Spring Swiss")
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    refused = client.post("/tournaments/new/", {**data, "game": "lizzy-ghosties"})
    assert refused.status_code == 400 and "choose tables" in refused.content.decode()
    for bad in ({"rating_min": "99999999999"}, {"starts_at": "tomorrow"}, {"rounds": "x"}, {"name": "a\x00b"}):
        assert client.post("/tournaments/new/", {**data, **bad}).status_code == 400
    assert Tournament.objects.count() == 1


def test_the_organisers_form_sets_the_games_options_validated_as_a_new_match(alice, bob, carol, client_for):
    client = client_for(alice)
    form = client.get("/tournaments/new/").content.decode()
    assert "Dizzy Duo Battle: Lives" in form and 'name="option_dizzy-duo-battle_lifeline"' in form
    start = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Lifeline tables",
        "game": "dizzy-duo-battle",
        "format": "tables",
        "time_preset": "daily",
        "starts_at": start,
        "rounds": 2,
        "table_size": 3,
        "min_entrants": 3,
        "max_entrants": 16,
        "option_dizzy-duo-battle_lives": "5",
        "option_dizzy-duo-battle_lifeline": "on",
        "option_lizzy-ghosties_dicey": "on",  # another game's: not this tournament's
    }
    for bad in ({"option_dizzy-duo-battle_lives": "-3"}, {"option_dizzy-duo-battle_lives": "many"}):
        assert client.post("/tournaments/new/", {**data, **bad}).status_code == 400
    assert not Tournament.objects.exists()
    assert client.post("/tournaments/new/", data).status_code == 302
    tournament = Tournament.objects.get(name="Lifeline tables")
    assert tournament.options["lives"] == 5 and tournament.options["lifeline"] is True
    assert "dicey" not in tournament.options
    edit = client.get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    assert 'name="option_dizzy-duo-battle_lives" value="5"' in edit
    for player in (alice, bob, carol):
        actions.do_join(tournament.pk, player)
    assert client.post(f"/tournaments/{tournament.pk}/start/").status_code == 302
    match = tournament.round_set.get().tables.get().match
    assert match.options["lives"] == 5 and match.options["lifeline"] is True


def test_the_form_is_for_signed_in_players(client):
    response = client.get("/tournaments/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_finished_tournament_shows_its_standings(alice, bob, carol, client):
    tournament = running_round_robin(alice, bob, carol)
    for _ in range(3):
        for table in tournament.round_set.order_by("-number").first().tables.exclude(match=None):
            games.do_adjudicate(table.match_id, [0], "test")
        actions.do_advance_if_round_over(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1 – 0" in page and "Withdraw" not in page
    assert tournament.name in client.get("/tournaments/").content.decode()


def test_the_pages_in_dutch(alice, client):
    tournament = open_tournament(alice)
    client.cookies["django_language"] = "nl"
    assert "Toernooien" in client.get("/tournaments/").content.decode()
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Stand" in page and "Nog niemand doet mee." in page


def test_the_organiser_invites_to_an_invite_only_tournament_and_adds_a_bot(alice, bob, carol, client_for):
    tournament = open_tournament(alice, invite_only=True, bots_allowed=True, game="solitaire-chess")
    assert "Enter this tournament" not in client_for(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client_for(bob).post(f"/tournaments/{tournament.pk}/join/").status_code == 403
    assert client_for(bob).post(f"/tournaments/{tournament.pk}/invite/", {"username": "bob"}).status_code == 403
    organiser = client_for(alice)
    assert "For the organiser" in organiser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert organiser.post(f"/tournaments/{tournament.pk}/invite/", {"username": "nobody"}).status_code == 400
    assert organiser.post(f"/tournaments/{tournament.pk}/invite/", {"username": "Bob"}).status_code == 302
    bob_client = client_for(bob)
    assert "Enter this tournament" in bob_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert bob_client.post(f"/tournaments/{tournament.pk}/join/").status_code == 302
    assert client_for(carol).post(f"/tournaments/{tournament.pk}/join/").status_code == 403
    assert organiser.post(f"/tournaments/{tournament.pk}/bots/", {"level": "nonsense"}).status_code == 400
    assert organiser.post(f"/tournaments/{tournament.pk}/bots/", {"level": "random"}).status_code == 302
    entrants = {(e.user_id, e.bot_level) for e in tournament.entries.all()}
    assert entrants == {(bob.pk, ""), (None, "random")}


def test_the_list_shows_the_readers_own_tournaments_and_titles(alice, bob, carol, client_for, client):
    won = running_round_robin(alice, bob, carol)
    for _ in range(3):
        for table in won.round_set.order_by("-number").first().tables.exclude(match=None):
            alices = table.seats.filter(entry__user=alice).first()
            games.do_adjudicate(table.match_id, [alices.number if alices else 0], "test: alice wins hers")
        actions.do_advance_if_round_over(won.pk)
    organised = open_tournament(bob, name="Bob's Open")
    page = client_for(alice).get("/tournaments/").content.decode()
    assert "Your tournaments" in page and "Winner" in page and organised.name not in page.split("Upcoming")[0]
    assert "Organiser" in client_for(bob).get("/tournaments/").content.decode()
    assert "Your tournaments" not in client.get("/tournaments/").content.decode()


def test_a_knockout_page_shows_who_goes_on(alice, bob, carol, client):
    tournament = open_tournament(alice, name="Knock", game="solitaire-chess", format=Tournament.Format.KNOCKOUT)
    for player in (alice, bob, carol):
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.do_start_if_due(tournament.pk)
    table = tournament.round_set.get().tables.exclude(match=None).get()
    winner = table.seats.get(number=1).entry.user
    cell = f'<td><a href="/players/{winner.username}/">'
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert '<th scope="col">Goes on</th>' in page
    before = page.count(cell)  # the first cell of the players' column, when the winner sits first
    games.do_adjudicate(table.match_id, [1], "test: the second seat wins")
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert page.count(cell) == before + 1  # and now in the "goes on" column


def test_the_board_pages_navigation_links_the_tournaments(alice, bob, client_for):
    """The board pages are drawn by Jinja2 (jinja2_templates/base.html): their menu has the link too."""
    from tests.helpers import start_match

    match = start_match(alice, [bob])
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    nav = page[page.index('<nav aria-label="Site">') : page.index("</nav>")]
    assert '<a href="/tournaments/">Tournaments</a>' in nav
    dutch = client_for(bob).get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<a href="/tournaments/">Toernooien</a>' in dutch


def test_a_knockout_page_draws_its_bracket(alice, make_user, client):
    tournament = open_tournament(alice, name="Bracket", game="solitaire-chess", format=Tournament.Format.KNOCKOUT)
    players = [make_user(f"k{n}") for n in range(5)]
    for player in players:
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    actions.do_start_if_due(tournament.pk)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    drawn = page[page.index('<ol class="bracket">') : page.index("</section>", page.index('<ol class="bracket">'))]
    # Five players: a bracket of eight, three byes; three rounds, the later ones still to be decided.
    assert [drawn.index(name) for name in ("Quarter-finals", "Semi-finals", "Final<")] == sorted(
        drawn.index(name) for name in ("Quarter-finals", "Semi-finals", "Final<")
    )
    assert drawn.count('<li class="bracket-match') == 4 + 2 + 1 and drawn.count("To be decided") == 3
    assert drawn.count(">Bye</li>") == 3 and "/static/css/tournaments.css" in page
    assert drawn.count('<li class="goes-on">') == 3  # the byes' players go on
    (table,) = tournament.round_set.get().tables.exclude(match=None)
    games.do_adjudicate(table.match_id, [0], "test: the first seat wins")
    winner = table.seats.get(number=0).entry.user.username
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    drawn = page[page.index('<ol class="bracket">') :]
    assert drawn.count('<li class="goes-on">') == 4 and '<span class="sr-only">goes on</span>' in drawn
    assert f'<li class="goes-on"><a href="/players/{winner}/">' in drawn
    client.cookies["django_language"] = "nl"
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Speelschema" in page and "Kwartfinales" in page and "gaat door" in page


def test_the_players_of_a_table_are_listed_with_no_space_before_the_comma(alice, bob, carol):
    tournament = running_round_robin(alice, bob, carol)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    pairings = page[page.index('<table class="pairings">') : page.index("</table>", page.index('class="pairings"'))]
    assert "</a>, <a" in pairings
    assert re.search(r"\s,", pairings) is None


def test_tournament_dates_are_written_as_the_boards_write_them_in_the_readers_language(alice, client):
    starts = timezone.make_aware(timezone.datetime(2026, 11, 29, 19, 17), timezone.get_fixed_timezone(0))
    tournament = open_tournament(alice, starts_at=starts + timedelta(days=365))
    english = client.get(tournament.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mon 29 Nov 2027, 19:17 UTC" in english and "p.m." not in english
    dutch = Client(HTTP_ACCEPT_LANGUAGE="nl").get(tournament.get_absolute_url()).content.decode()
    assert "ma 29 nov 2027, 19:17 UTC" in dutch and "Nov" not in dutch
    listed = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mon 29 Nov 2027, 19:17 UTC" in listed
