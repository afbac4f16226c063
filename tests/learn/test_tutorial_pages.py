"""The tutorial pages: anyone may take one; moves are judged; stale or bad posts change nothing."""

from __future__ import annotations

import json
import re

import pytest

from games.engines.registry import SPECS
from learn.models import TutorialProgress

pytestmark = pytest.mark.django_db


def _steps(slug):
    return SPECS[slug].tutorial.steps


def _finish(client, slug):
    """Play every step of the tutorial as a learner would: the taught move, or Next."""
    for at, (_lesson, _index, step) in enumerate(_steps(slug)):
        if step.move is None:
            response = client.post(f"/learn/{slug}/next/", {"step": at})
        else:
            response = client.post(f"/learn/{slug}/move/", {"step": at, "move": json.dumps(step.move)})
        assert response.status_code == 302, (at, response.content[:500])
        page = client.get(f"/learn/{slug}/")
        assert page.status_code == 200
    return page


@pytest.mark.parametrize("slug", [slug for slug, spec in SPECS.items() if spec.tutorial is not None])
def test_a_visitor_finishes_a_tutorial_and_is_offered_a_bot_match(client, slug):
    first = client.get(f"/learn/{slug}/").content.decode()
    assert "Step 1 of" in first and 'name="step" value="0"' in first
    html = _finish(client, slug).content.decode()
    assert "Well done!" in html
    assert f"/matches/new/?game={slug}&amp;bot=random" in html and f"game={slug}&amp;bot=normal" in html


def test_a_signed_in_players_progress_is_kept(client_for, alice):
    client = client_for(alice)
    slug = "solitaire-chess"
    step = _steps(slug)[0][2]
    assert client.post(f"/learn/{slug}/move/", {"step": 0, "move": json.dumps(step.move)}).status_code == 302
    assert TutorialProgress.objects.get(user=alice, game=slug).step == 1
    assert "Step 2 of" in client.get(f"/learn/{slug}/").content.decode()
    assert "You are at step 2." in client.get("/learn/").content.decode()
    _finish_from(client, slug, 1)
    progress = TutorialProgress.objects.get(user=alice, game=slug)
    assert progress.finished is not None and progress.step == len(SPECS[slug].tutorial)
    client.post(f"/learn/{slug}/restart/")
    assert TutorialProgress.objects.get(user=alice, game=slug).step == 0


def _finish_from(client, slug, start):
    for at, (_lesson, _index, step) in list(enumerate(_steps(slug)))[start:]:
        if step.move is None:
            client.post(f"/learn/{slug}/next/", {"step": at})
        else:
            client.post(f"/learn/{slug}/move/", {"step": at, "move": json.dumps(step.move)})


def test_a_repeated_or_stale_step_changes_nothing(client):
    slug = "solitaire-chess"
    move = json.dumps(_steps(slug)[0][2].move)
    assert client.post(f"/learn/{slug}/move/", {"step": 0, "move": move}).status_code == 302
    again = client.post(f"/learn/{slug}/move/", {"step": 0, "move": move})
    assert again.status_code == 409
    assert "already behind you" in again.content.decode()
    assert "Step 2 of" in client.get(f"/learn/{slug}/").content.decode()


def test_another_legal_move_is_answered_not_this_time(client):
    slug = "solitaire-chess"
    response = client.post(f"/learn/{slug}/move/", {"step": 0, "move": json.dumps({"type": "order", "first": False})})
    assert response.status_code == 200
    assert "Not this time" in response.content.decode()
    assert "Step 1 of" in client.get(f"/learn/{slug}/").content.decode()


@pytest.mark.parametrize(
    "body",
    [
        {"step": 0, "move": '{"type": "move", "from": "a3", "to": "z9"}'},
        {"step": 0, "move": "{" * 5000},
        {"step": 0, "move": '{"type": "order\\u0000"}'},
        {"step": 0, "move": "[]"},
        {"step": "x", "move": "{}"},
        {"step": 99, "move": '{"type": "order", "first": true}'},
    ],
)
def test_bad_input_gets_a_4xx_and_changes_nothing(client, body):
    response = client.post("/learn/solitaire-chess/move/", body)
    assert 400 <= response.status_code < 500
    assert "Step 1 of" in client.get("/learn/solitaire-chess/").content.decode()


def test_next_does_not_pass_a_step_that_teaches_a_move(client):
    response = client.post("/learn/solitaire-chess/next/", {"step": 0})
    assert response.status_code == 400
    assert "Step 1 of" in client.get("/learn/solitaire-chess/").content.decode()


def test_a_get_changes_nothing_and_an_unknown_game_is_404(client):
    assert client.get("/learn/solitaire-chess/move/").status_code == 405
    assert client.get("/learn/solitaire-chess/restart/").status_code == 405
    assert client.get("/learn/no-such-game/").status_code == 404


def test_htmx_gets_the_board_fragment_with_the_selection(client):
    response = client.get("/learn/solitaire-chess/?select=a3", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="board"' in html


@pytest.mark.parametrize("slug", list(SPECS))
@pytest.mark.parametrize(("language", "minute"), [("en", "The game in one minute"), ("nl", "Het spel in één minuut")])
def test_the_rules_page_starts_with_the_game_in_one_minute_and_its_real_board(client, slug, language, minute):
    response = client.get(f"/games/{slug}/rules/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200 and minute in html
    picture = html[html.index('class="rules-picture"') : html.index("</figure>")]
    # The board's own template drew it: the game's stylesheet and the board's markup, no controls.
    assert f"css/games/{slug}" in html and f"game-{slug}" in picture
    assert 'name="move"' not in picture
    assert html.count(f'href="/learn/{slug}/"') >= 2  # learn by playing, at the top and at the end


def test_the_home_page_games_list_and_the_header_offer_the_tutorials(client):
    assert "/learn/solitaire-chess/" in client.get("/").content.decode()
    games = client.get("/games/").content.decode()
    assert all(f"/learn/{slug}/" in games for slug in SPECS)
    assert 'href="/learn/"' in client.get("/games/solitaire-chess/rules/").content.decode()


def test_the_end_of_a_tutorial_fills_every_other_seat_with_the_bot(client_for, alice):
    page = client_for(alice).get("/matches/new/?game=lizzy-ghosties&bot=random").content.decode()
    for seat in (1, 2):  # the game's smallest table is three
        chosen = re.search(rf'<select name="seat_{seat}"[^>]*>.*?</select>', page, re.DOTALL).group(0)
        assert 'value="bot:random" selected' in chosen
