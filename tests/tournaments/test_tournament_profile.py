"""A player's profile lists their tournaments and titles: a read of tournaments.reads,
which imports no write module; in English and Dutch."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tournaments.models import Championship, Entry, Season, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
WRITE_MODULES = {"tournaments.actions", "tournaments.championship_actions", "tournaments.matches", "tournaments.tasks"}


def tournament(organiser, name: str, status: str, **fields) -> Tournament:
    return Tournament.objects.create(
        name=name,
        game="solitaire-chess",
        organiser=organiser,
        starts_at=timezone.now() - timedelta(days=3),
        status=status,
        ended=timezone.now() if status == Tournament.Status.FINISHED else None,
        **fields,
    )


def enter(tournament: Tournament, *players, places=()) -> None:
    for n, player in enumerate(players):
        Entry.objects.create(tournament=tournament, user=player, place=places[n] if places else None)


@pytest.fixture
def history(alice, bob, carol, make_user):
    admin = make_user("admin", is_staff=True)
    won = tournament(admin, "Spring Swiss", Tournament.Status.FINISHED)
    enter(won, alice, bob, carol, places=(1, 2, 3))
    lost = tournament(admin, "Summer Swiss", Tournament.Status.FINISHED)
    enter(lost, bob, alice, carol, places=(1, 2, 3))
    running = tournament(admin, "Autumn Swiss", Tournament.Status.RUNNING)
    enter(running, alice, bob)
    cancelled = tournament(admin, "Winter Swiss", Tournament.Status.CANCELLED)
    enter(cancelled, alice)
    championship = Championship.objects.create(game="solitaire-chess", organiser=admin)
    season = Season.objects.create(championship=championship, number=1)
    top = tournament(
        admin, "Solitaire Chess, season 1, division 1", Tournament.Status.FINISHED, season=season, division=0
    )
    enter(top, alice, carol, places=(1, 2))
    return {"won": won, "top": top}


def test_the_profile_lists_tournaments_places_and_titles(history, alice, client):
    page = client.get(f"/players/{alice.username}/").content.decode()
    section = page[page.index('id="tournaments-title"') :]
    assert "Spring Swiss" in section and "Summer Swiss" in section and "Autumn Swiss" in section
    assert "Winter Swiss" not in section  # cancelled: never played
    assert "2 of 3" in section and "Winner" in section and "Entered" in section
    assert "Titles:" in section
    assert "Champion: Solitaire Chess, season 1, division 1" in section
    assert "Winner of Spring Swiss" in section and "Winner of Summer Swiss" not in section
    assert f'href="/tournaments/{history["won"].pk}/"' in section


def test_the_profile_in_dutch(history, alice, client):
    page = client.get(f"/players/{alice.username}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    section = page[page.index('id="tournaments-title"') :]
    assert "Toernooien" in section and "Titels:" in section and "Kampioen: " in section
    assert "Winnaar van Spring Swiss" in section and "2 van 3" in section


def test_a_player_without_tournaments(bob, carol, client):
    page = client.get(f"/players/{carol.username}/").content.decode()
    section = page[page.index('id="tournaments-title"') :]
    assert "None yet." in section and "Titles:" not in section


def test_the_profile_reads_tournaments_without_their_write_modules():
    for module in ("ratings/views.py", "ratings/presenters.py", "tournaments/reads.py"):
        tree = ast.parse((ROOT / module).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not imported & WRITE_MODULES, module
