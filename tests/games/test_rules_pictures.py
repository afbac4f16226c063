"""The rules pages' pictures (games/pictures.py): each rule's picture is the game's own board at a
named step of its tutorial (Tutorial.pictures), without controls, seen from the learner's seat, with
ids of its own, so that a page of several boards keeps every id unique and every reference whole."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from games.engines.registry import SPECS
from games.pictures import MINUTE, board_picture, rules_pictures

# Accept-Language picks each page's language (the fixture in conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("locale_middleware")]

ROOT = Path(__file__).resolve().parents[2]
SLUGS = sorted(slug for slug, spec in SPECS.items() if spec.tutorial is not None)
IDS = re.compile(r'\sid="([^"]+)"')
REFERENCES = re.compile(r'(?:aria-labelledby|aria-describedby|aria-controls|for)="([^"]+)"')
FRAGMENTS = re.compile(r'(?:href="#|url\(#)([^")]+)')
FIGURE = re.compile(
    r'<figure class="rules-picture">\s*<div class="match game-[a-z-]+ rules-board">(.*?)</div>\s*'
    r"<figcaption>(.*?)</figcaption>\s*</figure>",
    re.DOTALL,
)


def page(client, slug: str, language: str) -> str:
    response = client.get(f"/games/{slug}/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("slug", SLUGS)
def test_every_named_picture_is_a_step_and_renders_without_controls(slug):
    tutorial = SPECS[slug].tutorial
    assert tutorial.pictures, f"{slug}: no rule has a picture"
    assert MINUTE not in tutorial.pictures  # the minute's picture is the tutorial's `picture`
    pictures = rules_pictures(slug)
    assert set(pictures) == {MINUTE, *tutorial.pictures}
    for name, at in tutorial.pictures.items():
        assert 0 <= at < len(tutorial), (slug, name, at)
        html = pictures[name]
        assert len(html) > 1000, (slug, name)
        assert 'name="move"' not in html and "<button" not in html, f"{slug}: {name} has controls"
        assert "{{" not in html and "Undefined" not in html
    # Each rule's picture shows a position of its own.
    assert len({str(html) for html in pictures.values()}) == len(pictures), slug


@pytest.mark.parametrize("slug", SLUGS)
def test_pictures_show_only_what_the_learners_seat_sees(slug, monkeypatch):
    engine = SPECS[slug].engine
    seats: list[int | None] = []
    real_view = engine.view

    def view(state, seat, ended=False):
        seats.append(seat)
        return real_view(state, seat, ended)

    monkeypatch.setattr(engine, "view", view)
    rules_pictures(slug)
    assert seats and set(seats) == {SPECS[slug].tutorial.seat}


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("language", ["en", "nl"])
def test_each_rules_page_has_every_picture_captioned_with_unique_ids(client, slug, language):
    html = page(client, slug, language)
    figures = FIGURE.findall(html)
    names = [MINUTE, *SPECS[slug].tutorial.pictures]
    assert len(figures) == len(names), f"{slug} ({language}): {len(figures)} pictures for {names}"
    for name in names:
        assert sum(f'id="pic-{name}-' in board for board, _caption in figures) == 1, (slug, language, name)
    for _board, caption in figures:
        assert len(caption.strip()) > 20
    ids = IDS.findall(html)
    assert not [one for one, count in Counter(ids).items() if count > 1], f"{slug} ({language}): duplicate ids"
    references = {ref for refs in REFERENCES.findall(html) for ref in refs.split()} | set(FRAGMENTS.findall(html))
    assert references <= set(ids), f"{slug} ({language}): references to no id: {references - set(ids)}"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_board_page_keeps_its_ids_unprefixed(slug):
    """A match page's board (and the tutorial's) writes no prefix: its scripts and links find the same ids."""
    plain = board_picture(slug)
    assert "pic-" not in plain
    prefixed = board_picture(slug, ids="x-")
    assert IDS.findall(prefixed) == [f"x-{one}" for one in IDS.findall(plain)]
    assert "{{" not in plain


def test_the_english_and_dutch_captions_differ(client):
    for slug in SLUGS:
        english = [caption for _board, caption in FIGURE.findall(page(client, slug, "en"))]
        dutch = [caption for _board, caption in FIGURE.findall(page(client, slug, "nl"))]
        assert len(english) == len(dutch)
        assert not set(english) & set(dutch), slug


@pytest.mark.parametrize("slug", SLUGS)
def test_every_id_a_board_template_writes_takes_the_prefix(slug):
    """A new id written without `{{ idp }}` would repeat on a rules page: the template says so first."""
    source = (ROOT / "jinja2_templates" / "games" / slug / "board.html").read_text()
    written = re.findall(r'\sid="([^"]*)"', source)
    assert written and all(one.startswith("{{ idp }}") for one in written), slug
