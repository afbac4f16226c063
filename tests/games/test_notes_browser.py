"""The notes box keeps what was typed a moment before the page went away: a reload at once shows it,
leaving for another page still saves it, and the status line says "not saved yet" meanwhile.
Marker `browser`."""

from __future__ import annotations

import pytest

from games.models import Note
from tests.browser_helpers import page_as
from tests.helpers import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def saved_text(page, match, user, seconds: float = 10) -> str:
    """The notes as the server holds them, waited for in Playwright's loop."""
    text = ""
    for _ in range(int(seconds * 5)):
        text = Note.objects.filter(match=match, user=user).values_list("text", flat=True).first() or ""
        if text:
            return text
        page.wait_for_timeout(200)
    return text


def test_notes_typed_just_before_a_reload_are_kept(browser, live_server, alice, bob):
    match = start_match(alice, [bob])
    page = page_as(browser, live_server, alice)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.fill("#notes-text", "bob likes the corners")
        assert page.locator("[data-notes-status]").inner_text() == "Not saved yet."
        page.reload()
        assert page.locator("#notes-text").input_value() == "bob likes the corners"
        assert saved_text(page, match, alice) == "bob likes the corners"
        page.wait_for_selector("[data-notes-status]:text('Saved.')")
    finally:
        page.context.close()


def test_notes_typed_just_before_leaving_the_page_are_saved(browser, live_server, alice, bob):
    match = start_match(alice, [bob])
    page = page_as(browser, live_server, alice)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.fill("#notes-text", "he opens with the queen")
        page.goto(f"{live_server.url}/")
        assert saved_text(page, match, alice) == "he opens with the queen"
        assert "Your notes are saved." not in page.content()  # the script's save, not the form's
    finally:
        page.context.close()
