"""The Dutch rules pages: a Dutch visitor gets templates/games/rules/nl/<slug>.html, with
the same pictures and the same ruling ids as the English page; an English visitor's page is unchanged."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from games import views
from games.engines.registry import GAMES
from games.pictures import rules_pictures

pytestmark = pytest.mark.django_db


# A few words each Dutch page must hold, and a few of its English page's words it must not.
DUTCH_WORDS = {
    "solitaire-chess": ["zo speel je het", "Het bord", "tegenstander", "stapel", "dame", "beurt"],
    "doubting-flower-field": [
        "Het veld en de levens",
        "bloem",
        "uitdaging",
        "tegenstander",
        "levens",
        "Twee gelijke bloemvelden",
    ],
    "dizzy-duo-battle": ["De kaarten", "aanvallen", "levens", "blinde stapel", "tegenstander", "beurt"],
    "lizzy-ghosties": ["De kaarten", "spook", "zijstapel", "stelen", "beurt", "Brand-Lizzy"],
}
ENGLISH_WORDS = {
    "solitaire-chess": ["how to play", "The board", "Moving", "enemy piece", "stack", "Time"],
    "doubting-flower-field": [
        "how to play",
        "The field and the lives",
        "Challenging",
        "Two equal flower fields",
        "hidden flower",
        "lives",
    ],
    "dizzy-duo-battle": ["how to play", "The cards", "Attacking", "The battle", "blind pile", "lives"],
    "lizzy-ghosties": ["how to play", "The cards", "Setting up", "Burn Lizzy", "side stack", "ghost"],
}
# Common English words that no Dutch page's own text should contain.
ENGLISH_GLUE = re.compile(r"\b(the|and|you|your|with|when|which|players?|turns?|cards?)\b", re.IGNORECASE)
RULING_ID = re.compile(r"\b(?:LZ|DD|LG|FF|SC|ALL)-\d+\b")
ARTICLE = re.compile(r'<article class="rules panel"[^>]*>.*?</article>', re.DOTALL)


def article(html: str) -> str:
    found = ARTICLE.search(html)
    assert found, "no rules article on the page"
    return found.group(0)


def visible_text(html: str) -> str:
    """The words a reader sees (and a screen reader reads): text and the labels of the pictures."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    labels = " ".join(re.findall(r'(?:aria-label|alt|title)="([^"]*)"', html))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html) + " " + labels)


def get_page(client, slug: str, language: str) -> str:
    response = client.get(f"/games/{slug}/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_dutch_visitor_gets_the_dutch_rules_page(client, locale_middleware, slug):
    page = get_page(client, slug, "nl")
    text = visible_text(article(page))
    for word in DUTCH_WORDS[slug]:
        assert word.lower() in text.lower(), f"{slug}: '{word}' missing from the Dutch page"
    for word in ENGLISH_WORDS[slug]:
        assert word not in text, f"{slug}: the English '{word}' is on the Dutch page"
    glue = sorted({match.lower() for match in ENGLISH_GLUE.findall(text)})
    assert not glue, f"{slug}: English words on the Dutch page: {glue}"
    assert "spelregels" in re.search(r"<title>(.*?)</title>", page, re.DOTALL).group(1)
    assert GAMES[slug] in page


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_dutch_page_has_the_english_pictures_and_rulings(client, locale_middleware, slug):
    english, dutch = get_page(client, slug, "en"), get_page(client, slug, "nl")
    assert dutch.count("<svg") == english.count("<svg")
    assert article(dutch).count("<svg") == article(english).count("<svg")
    # The same picture elements (flowers, outlines, labels) in the same places.
    for tag in ("<use ", "<rect ", "<symbol ", "<figure"):
        assert article(dutch).count(tag) == article(english).count(tag), f"{slug}: {tag} count differs"
    assert set(RULING_ID.findall(article(english))) <= set(RULING_ID.findall(article(dutch)))


def test_flower_field_pictures_are_captioned_in_dutch(client, locale_middleware):
    page = article(get_page(client, "doubting-flower-field", "nl"))
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page, re.DOTALL)
    assert any(caption.startswith("Twee gelijke bloemvelden") for caption in captions)
    assert any("ontploffing" in caption for caption in captions)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_english_page_is_unchanged_for_english(client, locale_middleware, slug):
    for headers in ({}, {"HTTP_ACCEPT_LANGUAGE": "en"}, {"HTTP_ACCEPT_LANGUAGE": "de"}):
        response = client.get(f"/games/{slug}/rules/", **headers)
        page = response.content.decode()
        assert "how to play" in page and "zo speel je het" not in page
        with translation.override("en"):
            context = {"game_name": GAMES[slug], "slug": slug, "pictures": rules_pictures(slug)}
            expected = render_to_string(f"games/rules/{slug}.html", context)
        assert article(page) == article(expected)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_view_picks_the_dutch_template_for_the_active_language(slug):
    request = RequestFactory().get(f"/games/{slug}/rules/")
    with translation.override("nl"):
        page = views.rules(request, slug).content.decode()
    assert "zo speel je het" in page and "how to play" not in page
    with translation.override("en"):
        page = views.rules(request, slug).content.decode()
    assert "how to play" in page
