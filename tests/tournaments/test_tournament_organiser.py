"""The organiser's page: their tournaments; before the start they change one, call it off
and invite players; nobody else may, and nothing changes once it has started. English and Dutch."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import Kind, Notification
from tournaments import actions
from tournaments.models import Invitation, Tournament
from tournaments.views import form_initial

pytestmark = pytest.mark.django_db


def open_tournament(organiser, **changes) -> Tournament:
    chosen = {
        "name": "Flower Monday",
        "game": "doubting-flower-field",
        "format": Tournament.Format.ROUND_ROBIN,
        "starts_at": timezone.now() + timedelta(days=2),
        "min_entrants": 2,
    }
    return actions.do_create(organiser, actions.TournamentSettings(**{**chosen, **changes}))


def form_data(tournament: Tournament, **changes) -> dict[str, object]:
    """What the edit form posts back: its initial values, with `changes`."""
    data = {key: value for key, value in form_initial(tournament).items() if value is not None}
    data["starts_at"] = data["starts_at"].strftime("%Y-%m-%dT%H:%M")
    return {key: value for key, value in {**data, **changes}.items() if value is not False}


def test_the_organisers_page_lists_their_tournaments_only(alice, bob, client, client_for):
    mine = open_tournament(alice, name="Alice Open")
    page = client_for(alice).get("/tournaments/organised/").content.decode()
    assert "Alice Open" in page
    assert f'href="/tournaments/{mine.pk}/edit/"' in page and f'action="/tournaments/{mine.pk}/cancel/"' in page
    assert f'action="/tournaments/{mine.pk}/invite/"' in page
    assert "/tournaments/organised/" in client_for(alice).get("/tournaments/").content.decode()
    assert "You organise no tournament yet." in client_for(bob).get("/tournaments/organised/").content.decode()
    response = client.get("/tournaments/organised/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    dutch = client_for(alice).get("/tournaments/organised/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Toernooien die je organiseert" in dutch and "Het toernooi afgelasten" in dutch
    open_tournament(bob, name="Bob Open")
    assert "Bob Open" not in client_for(alice).get("/tournaments/organised/").content.decode()


def test_the_organiser_changes_their_tournament_before_the_start(alice, bob, client_for):
    tournament = open_tournament(alice, name="Spring Cup", game="solitaire-chess", format=Tournament.Format.SWISS)
    page = client_for(alice).get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    assert 'value="Spring Cup"' in page and "Save the changes" in page
    response = client_for(alice).post(
        f"/tournaments/{tournament.pk}/edit/", form_data(tournament, name="Summer Cup", rounds=6, round_hours=72)
    )
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds, tournament.round_hours) == ("Summer Cup", 6, 72)
    assert client_for(bob).get(f"/tournaments/{tournament.pk}/edit/").status_code == 404  # not theirs
    assert client_for(bob).post(f"/tournaments/{tournament.pk}/edit/", form_data(tournament)).status_code == 404
    for player in (alice, bob):
        actions.do_join(tournament.pk, player)
    too_few = client_for(alice).post(f"/tournaments/{tournament.pk}/edit/", form_data(tournament, max_entrants=1))
    assert too_few.status_code == 400
    too_small = client_for(alice).post(
        f"/tournaments/{tournament.pk}/edit/", form_data(tournament, min_entrants=2, max_entrants=1)
    )
    assert too_small.status_code == 400
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert actions.do_start_if_due(tournament.pk) == "started"
    late = client_for(alice).post(
        f"/tournaments/{tournament.pk}/edit/",
        {**form_data(tournament), "starts_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")},
    )
    assert late.status_code == 400 and "only a moderator can change it now" in late.content.decode()
    tournament.refresh_from_db()
    assert tournament.name == "Summer Cup" and tournament.status == Tournament.Status.RUNNING


def test_the_organiser_calls_it_off_and_the_entrants_hear(alice, bob, client_for):
    tournament = open_tournament(alice)
    actions.do_join(tournament.pk, bob)
    assert client_for(bob).post(f"/tournaments/{tournament.pk}/cancel/").status_code == 403
    assert client_for(alice).get(f"/tournaments/{tournament.pk}/cancel/").status_code == 405
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN
    response = client_for(alice).post(f"/tournaments/{tournament.pk}/cancel/")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.end_reason == "Cancelled by the organiser."
    assert Notification.objects.filter(tournament=tournament, recipient=bob, kind=Kind.TOURNAMENT_OVER).exists()
    assert client_for(alice).post(f"/tournaments/{tournament.pk}/cancel/").status_code == 400  # once
    page = client_for(bob).get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Afgelast door de organisator." in page


def test_the_organiser_invites_from_their_page(alice, bob, client_for):
    tournament = open_tournament(alice, invite_only=True)
    response = client_for(alice).post(f"/tournaments/{tournament.pk}/invite/", {"username": "bob"})
    assert response.status_code == 302 and Invitation.objects.filter(tournament=tournament, user=bob).exists()


def test_the_organiser_starts_it_now_once_the_fewest_entrants_are_in(alice, bob, carol, client_for):
    tournament = open_tournament(alice, min_entrants=3)
    url = f"/tournaments/{tournament.pk}/start/"
    actions.do_join(tournament.pk, bob)
    page = client_for(alice).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert url not in page and "It can start now once 3 players have entered." in page
    refused = client_for(alice).post(url)
    assert refused.status_code == 400 and "It can start once 3 players have entered." in refused.content.decode()
    actions.do_join(tournament.pk, carol)
    actions.do_join(tournament.pk, alice)
    assert url in client_for(alice).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client_for(alice).get(url).status_code == 405  # a link opened by a prefetch changes nothing
    assert client_for(bob).post(url).status_code == 403  # only the organiser
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.OPEN
    assert client_for(alice).post(url).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round >= 1
    assert tournament.starts_at <= timezone.now()
    assert Notification.objects.filter(tournament=tournament, recipient=bob, kind=Kind.TOURNAMENT_STARTED).exists()
    assert client_for(alice).post(url).status_code == 400  # started already
