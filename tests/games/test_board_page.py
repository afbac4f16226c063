"""The board page as served: compressed, one game stylesheet, a description, few queries at any move."""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from games.engines.registry import SPECS, get_engine
from tests.helpers import start_match

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static"
PLAYERS = {"solitaire-chess": 2, "doubting-flower-field": 2, "dizzy-duo-battle": 6, "lizzy-ghosties": 8}


@pytest.fixture(params=list(SPECS))
def page(request, make_user, client_for):
    slug = request.param
    users = [make_user(f"player{i}") for i in range(PLAYERS[slug])]
    match = start_match(users[0], users[1:], slug)
    return slug, client_for(users[0]).get(f"/matches/{match.pk}/", HTTP_ACCEPT_ENCODING="gzip")


def test_the_board_page_is_served_compressed(page):
    slug, response = page
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    assert html.lstrip().startswith("<!doctype html>")
    assert len(response.content) < 30_000, f"{slug}: {len(response.content)} bytes compressed"


def test_the_board_page_links_its_own_stylesheet_and_the_sites_only(page):
    slug, response = page
    html = gzip.decompress(response.content).decode()
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    assert sheets == ["/static/css/site.css", f"/static/css/games/{slug}.css"]
    assert re.search(r'<meta name="description" content="[^"]{20,}">', html)


def test_no_stylesheet_imports_another():
    sheets = list(STATIC.rglob("*.css"))
    assert sheets
    assert [str(p) for p in sheets if "@import" in p.read_text()] == []


def board_queries(client, match) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/matches/{match.pk}/").status_code == 200
    return len(queries)


@pytest.mark.slow
@pytest.mark.parametrize("slug", list(SPECS))
def test_a_board_page_costs_at_most_six_queries_early_and_late(slug, make_user, client_for):
    users = [make_user(f"player{i}") for i in range(PLAYERS[slug])]
    by_id = {user.pk: user for user in users}
    match = start_match(users[0], users[1:], slug)
    watcher = client_for(users[0])
    early = board_queries(watcher, match)
    rng = random.Random(7)
    engine = get_engine(slug)
    for _ in range(30):  # moves that keep the match going, so the late page is the same kind of page
        match.refresh_from_db()
        seat = match.seats.filter(to_act=True).first()
        legal = engine.legal_moves(match.state, seat.number)
        going = [m for m in legal if engine.result(engine.apply(match.state, seat.number, m)[0]) is None]
        if not going:
            break
        actions.do_move(match.pk, by_id[seat.user_id], match.version, rng.choice(going))
    match.refresh_from_db()
    assert match.version >= 10 and match.status == "active"
    assert early <= 6
    assert board_queries(watcher, match) == early


def test_a_bot_has_one_name_everywhere_and_two_of_a_level_say_their_seats(make_user, client_for):
    alice = make_user("botnames-alice")
    alone = start_match(alice, ["normal"], "solitaire-chess")
    page = client_for(alice).get(f"/matches/{alone.pk}/").content.decode()
    assert "Normal bot" in page and "Normal bot #" not in page and "(seat 2)" not in page
    crowded = start_match(alice, ["normal", "normal", "random"], "lizzy-ghosties")
    page = client_for(alice).get(f"/matches/{crowded.pk}/").content.decode()
    assert "Normal bot (seat 2)" in page and "Normal bot (seat 3)" in page
    assert "Random bot (seat" not in page and "Random bot" in page


def test_an_invitation_names_who_invited_you(make_user, client_for):
    from games import actions
    from games.actions import SeatSpec

    host, guest = make_user("inviting-host"), make_user("invited-guest")
    match = actions.create_match(host, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", guest.username)])
    assert "inviting-host invited you to this match." in client_for(guest).get(f"/matches/{match.pk}/").content.decode()
    assert "invited you" not in client_for(host).get(f"/matches/{match.pk}/").content.decode()
