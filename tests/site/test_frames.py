"""The site has two frames, templates/base.html for the Django-template pages and
jinja2_templates/base.html for the pages drawn by Jinja2 (the boards, the dashboard, the inbox, the
replays, the profiles). A player must not see which engine drew a page: both frames give the same header, skip link
and everything after the content, for a visitor and a member, in English and Dutch."""

from __future__ import annotations

import re

import pytest
from django.test import Client

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+(")')
NEXT = re.compile(r'(name="next" value=")[^"]*(")')
TURN_COUNT = re.compile(r'<a id="turn-count".*?</a>', re.S)  # loaded by the Jinja2 pages, drawn by the others


def frame_parts(html: str) -> dict[str, str]:
    """What the frame draws around the page's own content, with the per-request values blanked."""
    html = TURN_COUNT.sub("", NEXT.sub(r"\1\2", CSRF.sub(r"\1\2", html)))
    head, _, rest = html.partition("<body")
    body_tag, _, body = rest.partition(">")
    before_main, _, after_open = body.partition('<main id="main" tabindex="-1">')
    _, _, after_main = after_open.partition("</main>")
    squash = lambda text: re.sub(r">\s+<", "><", re.sub(r"\s+", " ", text)).strip()  # noqa: E731
    return {
        "body": squash(re.sub(r'X-CSRFToken": "[^"]+"', "", body_tag)),
        "header": squash(before_main),
        "after": squash(after_main),
        "scripts": squash("".join(re.findall(r"<script[^>]*></script>", head))),
        "lang": re.search(r'<html lang="([^"]+)"', html).group(1),
    }


@pytest.mark.parametrize("language", ["en", "nl"])
def test_both_frames_draw_the_same_header_and_footer_for_a_member(language, alice, bob, client_for):
    client = client_for(alice)
    client.cookies["django_language"] = language
    django_page = client.get("/games/", HTTP_ACCEPT_LANGUAGE=language)
    jinja_page = client.get("/players/bob/", HTTP_ACCEPT_LANGUAGE=language)
    assert django_page.status_code == jinja_page.status_code == 200
    django_parts, jinja_parts = frame_parts(django_page.content.decode()), frame_parts(jinja_page.content.decode())
    assert "Dizzysite" in django_parts["header"] and 'data-live="/live/"' in django_parts["body"]
    assert django_parts == jinja_parts


def test_both_frames_draw_the_same_header_and_footer_for_a_visitor(alice, bob):
    client = Client()
    django_page = client.get("/games/")
    jinja_page = client.get("/players/bob/")
    assert django_page.status_code == jinja_page.status_code == 200
    django_parts, jinja_parts = frame_parts(django_page.content.decode()), frame_parts(jinja_page.content.decode())
    assert 'href="/accounts/login/"' in django_parts["header"]
    assert django_parts == jinja_parts
