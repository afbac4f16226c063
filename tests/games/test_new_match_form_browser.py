"""The new-match form for every game fits a phone and a desktop, is axe-clean in English and Dutch,
and with its script shows only what the chosen settings need: the username box of an "Invite" seat,
the seats of the chosen number of players, the custom clock's fields. Marker `browser`."""

from __future__ import annotations

import pytest

from games.engines.registry import GAMES
from tests.browser_helpers import page_as, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_new_match_form_fits_is_axe_clean_and_shows_the_invite_box_on_invite(browser, live_server, alice, locale):
    for width in (390, 1280):
        page = page_as(browser, live_server, alice, width=width, locale=locale)
        for slug in GAMES:
            page.goto(f"{live_server.url}/matches/new/?game={slug}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (slug, width, locale)
            assert serious_violations(page) == [], (slug, width, locale)
            invite = page.locator("#id_invite_1")
            assert invite.is_hidden(), (slug, width, locale)
            assert page.locator("#id_turn_minutes").is_hidden(), (slug, width, locale)
            page.select_option("#id_seat_1", "invite")
            assert invite.is_visible(), (slug, width, locale)
            page.select_option("#id_time_preset", "custom")
            assert page.locator("#id_turn_minutes").is_visible(), (slug, width, locale)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (slug, width, locale)
            assert serious_violations(page) == [], (slug, width, locale)
            players = page.locator("#id_players option").all_inner_texts()
            first = int(players[0])
            page.select_option("#id_players", str(first))
            for seat in range(first, int(players[-1])):
                assert page.locator(f"#id_seat_{seat}").is_hidden(), (slug, seat)
        page.context.close()


def test_without_javascript_every_field_shows_and_the_form_still_creates_a_match(browser, live_server, alice):
    from django.test import Client

    from games.models import Match

    client = Client()
    client.force_login(alice)
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/new/?game=solitaire-chess")
    for field in ("#id_invite_1", "#id_turn_minutes", "#id_reserve_periods", "#id_period_minutes"):
        assert page.locator(field).is_visible(), field
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("#id_seat_1", "bot:random")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert Match.objects.filter(created_by=alice).count() == 1
    context.close()


def test_each_checkbox_sits_beside_its_label(browser, live_server, alice):
    page = page_as(browser, live_server, alice, width=390)
    page.goto(f"{live_server.url}/matches/new/?game=solitaire-chess")
    for name in ("rated", "weekend_pause", "spectators_read_chat"):
        box = page.locator(f"#id_{name}").bounding_box()
        label = page.locator(f"label[for=id_{name}]").bounding_box()
        assert box and label
        assert label["x"] >= box["x"] + box["width"] - 1, name  # to its right
        assert label["y"] < box["y"] + box["height"] and box["y"] < label["y"] + label["height"], name  # same line
    page.context.close()
