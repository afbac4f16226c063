"""A player's private notes on a board: saved by the plain form (no JavaScript) or by the
board's script (JSON back), CSRF-safe, POST only, for the players of the match alone, kept after the
end. (That no other viewer ever reads them is the hidden-information audit's: tests/audit.)"""

from __future__ import annotations

import pytest
from django.test import Client

from games import actions
from games.models import Note
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


def notes_url(match) -> str:
    return f"/matches/{match.pk}/notes/"


def test_the_plain_form_saves_and_comes_back_to_the_notes(alice, bob, client_for):
    match = start_match(alice, [bob])
    c = client_for(alice)
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert f'action="{notes_url(match)}"' in page and 'name="text"' in page and "Save notes" in page
    assert "js/notes.js" in page
    response = c.post(notes_url(match), {"text": "bob likes the corners"})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/#notes"
    assert Note.objects.get(match=match, user=alice).text == "bob likes the corners"
    page = c.get(f"/matches/{match.pk}/").content.decode()
    assert "bob likes the corners</textarea>" in page and "Your notes are saved." in page


def test_the_script_saves_as_json_and_a_second_save_replaces_the_first(alice, bob, client_for):
    match = start_match(alice, [bob])
    c = client_for(alice)
    first = c.post(notes_url(match), {"text": "one"}, HTTP_ACCEPT="application/json")
    second = c.post(notes_url(match), {"text": "two\r\nlines"}, HTTP_ACCEPT="application/json")
    assert first.status_code == second.status_code == 200 and "saved" in second.json()
    assert Note.objects.filter(match=match, user=alice).count() == 1
    assert Note.objects.get(match=match, user=alice).text == "two\nlines"


def test_notes_need_the_csrf_token_and_a_post(alice, bob):
    match = start_match(alice, [bob])
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(alice)
    assert guarded.post(notes_url(match), {"text": "forged"}).status_code == 403
    assert guarded.get(notes_url(match)).status_code == 405
    assert not Note.objects.exists()


def test_only_players_keep_notes_and_bad_notes_change_nothing(alice, bob, carol, client_for):
    match = start_match(alice, [bob])
    refused = client_for(carol).post(notes_url(match), {"text": "x"})
    assert refused.status_code == 403 and "Only the players of this match keep notes on it." in refused.content.decode()
    assert client_for(carol).post(notes_url(match), {"text": "x"}, HTTP_ACCEPT="application/json").status_code == 403
    assert "Save notes" not in client_for(carol).get(f"/matches/{match.pk}/").content.decode()
    assert "Save notes" not in Client().get(f"/matches/{match.pk}/").content.decode()
    anonymous = Client().post(notes_url(match), {"text": "x"})
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    json = {"HTTP_ACCEPT": "application/json"}
    assert client_for(alice).post(notes_url(match), {"text": "a\x00b"}, **json).status_code == 400
    assert client_for(alice).post(notes_url(match), {"text": "x" * (Note.MAX_LENGTH + 1)}, **json).status_code == 400
    assert client_for(alice).post("/matches/999999/notes/", {"text": "x"}).status_code == 404
    assert not Note.objects.exists()


def test_notes_stay_after_the_end_and_no_poll_redraws_them(alice, bob, client_for):
    match = start_match(alice, [bob])
    client_for(alice).post(notes_url(match), {"text": "keep this"})
    fragment = client_for(alice).get(f"/matches/{match.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "keep this" not in fragment and "Save notes" not in fragment  # outside the polled board
    actions.do_resign(match.pk, bob)
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert "keep this</textarea>" in page
    assert client_for(bob).post(notes_url(match), {"text": "after the end"}).status_code == 302
    assert Note.objects.get(match=match, user=bob).text == "after the end"
