"""(defect 5): every page a signed-in Dutch player can reach is Dutch, so the next hole fails here.

A Dutch player with a bit of everything (a finished match with ratings, a running one, an aborted one,
an open invitation, inbox entries, an API token, a vacation and email preferences) walks the site: an
explicit list of the pages, then every link those pages show, as a crawler would (GET only, on this
site, never the logout link). Each HTML page is read for English words (tests/dutch_words.py): its text
and what a screen reader speaks. Not walked: /admin/ (staff only), /api/v1/ (django-ninja's JSON and its
English documentation page), and files that are not HTML (records, calendars, the manifest, scripts).
"""

from __future__ import annotations

import re
from collections import deque
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest

from api.models import ApiToken
from games import actions
from games.actions import SeatSpec
from games.engines.registry import GAMES, get_engine
from games.models import Match
from moderation import actions as moderation
from notifications.models import Kind, Notification
from tests.dutch_words import assert_dutch, english_texts
from tests.helpers import start_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

HREF = re.compile(r'href="([^"]*)"')
NOT_WALKED = ("/accounts/logout/", "/admin/", "/api/v1/", "/static/", "/jsi18n/", "/calendar/", "/sw.js")
NOT_HTML = (".json", ".ics", ".webmanifest", ".js", ".css", ".png", ".svg", ".ico")
# A page with many links of one shape (a replay's positions) is walked at a few of them, not all.
SAME_PATH_LIMIT = 4
MAX_PAGES = 400


def finish_by_the_rules(match: Match) -> Match:
    """Both seats play legal moves through the real action until the rules end the match."""
    engine = get_engine(match.game)
    users = {seat.number: seat.user for seat in match.seats.select_related("user")}
    for _ in range(engine.max_moves(len(users), match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = engine.to_act(match.state)[0]
        actions.do_move(match.pk, users[seat], match.version, engine.legal_moves(match.state, seat)[0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@pytest.fixture
def dutch_player(make_user, django_capture_on_commit_callbacks):
    """speler0 (Dutch) with a finished, a running, an aborted and an open match, inbox rows and a token."""
    me = make_user("speler0", language="nl")
    other = make_user("speler1", language="nl")
    moderator = make_user("moderator", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_the_rules(start_match(me, [other]))
        start_match(me, [other])  # running
        aborted = start_match(other, [me])
        mover = aborted.seats.get(to_act=True)
        actions.do_move(aborted.pk, mover.user, 0, get_engine(aborted.game).legal_moves(aborted.state, mover.number)[0])
        moderation.abort(moderator, aborted.pk, "testen")
        actions.create_match(other, "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("invite", me.username)], options={})
        actions.create_match(me, "lizzy-ghosties", [SeatSpec("me"), *[SeatSpec("open")] * 3], options={})
    assert Notification.objects.filter(recipient=me).exists()
    Notification.objects.create(match=aborted, recipient=me, kind=Kind.FINISHED, turn=aborted.version)
    ApiToken.issue(me, "mijn bot")
    ApiToken.issue(me, "oud")[0].revoke()
    return me


def start_pages(player) -> list[str]:
    """Every kind of page, whether or not some page links to it."""
    pages = ["/", "/games/", "/matches/new/", "/settings/", "/settings/api/", "/email/preferences/", "/inbox/"]
    pages += ["/leaderboards/", f"/players/{player.username}/", f"/players/{player.username}/matches/"]
    pages += ["/players/speler1/", "/players/speler1/matches/"]
    pages += ["/matches/999999/", "/players/niemand-hier/"]  # the site's own 404 page
    for slug in GAMES:
        pages += [f"/games/{slug}/rules/", f"/matches/new/?game={slug}", f"/leaderboards/{slug}/"]
        pages += [f"/leaderboards/{slug}/?provisional=1", f"/leaderboards/{slug}/?pool=bots&provisional=1"]
    for match in Match.objects.filter(seats__user=player):
        pages += [f"/matches/{match.pk}/", f"/matches/{match.pk}/history/"]
        if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
            pages += [f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/replay/?seat=1&at=1"]
    return pages


def walked(page: str, url: str) -> str | None:
    """The site-relative address to walk for a link on the page at `page`, or None for one not to follow."""
    url = unescape(url).split("#", 1)[0]
    if not url:
        return None  # a same-page anchor
    parts = urlsplit(urljoin(f"http://testserver{page}", url))
    if parts.scheme != "http" or parts.netloc != "testserver":
        return None  # another site, a mailto:
    if parts.path.startswith(NOT_WALKED) or parts.path.endswith(NOT_HTML):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def walk(client, pages: list[str]) -> dict[str, dict[str, set[str]]]:
    """Every HTML page reachable from `pages`: {address: its English texts}."""
    queue, seen, per_path = deque(pages), set(), {}
    found: dict[str, dict[str, set[str]]] = {}
    while queue and len(seen) < MAX_PAGES:
        address = queue.popleft()
        path = address.split("?", 1)[0]
        if address in seen or (address not in pages and per_path.get(path, 0) >= SAME_PATH_LIMIT):
            continue
        seen.add(address)
        per_path[path] = per_path.get(path, 0) + 1
        response = client.get(address)
        assert response.status_code < 500, address
        if response.status_code not in (200, 404) or not response["Content-Type"].startswith("text/html"):
            continue  # a redirect (its target is walked when linked), a file, a fragment
        page = response.content.decode()
        assert 'lang="nl"' in page, address
        found[address] = english_texts(page)
        links = (walked(address, href) for href in HREF.findall(page))
        queue.extend(link for link in links if link and link not in seen)
    return found


def test_every_page_a_dutch_player_reaches_is_dutch(dutch_player, client_for):
    found = walk(client_for(dutch_player), start_pages(dutch_player))
    # The walk reached every kind of page, the ones found through links included.
    addresses = set(found)
    for expected in ("/settings/api/", "/email/preferences/", "/inbox/", "/leaderboards/", "/matches/new/"):
        assert expected in addresses, expected
    assert any("/replay/" in address for address in addresses)
    assert any(address.startswith("/players/") for address in addresses)
    assert len(addresses) > 40
    leftover = {address: texts for address, texts in found.items() if texts}
    assert leftover == {}, "English on Dutch pages:\n" + "\n".join(f"{a}: {t}" for a, t in leftover.items())


def test_the_api_settings_page_and_its_messages_are_dutch(dutch_player, client_for, settings):
    """The holes the outside check found: /settings/api/ and its messages (defect 5)."""
    from api import views

    c = client_for(dutch_player)
    assert_dutch(c.get("/settings/api/").content.decode(), "/settings/api/")
    token = ApiToken.objects.filter(user=dutch_player, revoked__isnull=True).get()
    page = c.post(f"/settings/api/{token.pk}/revoke/", follow=True).content.decode()
    assert "Het token “mijn bot” is ingetrokken." in page
    assert_dutch(page, "the page after a revocation")
    for number in range(views.MAX_TOKENS):
        ApiToken.issue(dutch_player, f"token {number}")
    full = c.post("/settings/api/", {"name": "nog een", "scopes": ["read"]})
    assert full.status_code == 400
    assert f"Je hebt {views.MAX_TOKENS} tokens; trek er eerst een in." in full.content.decode()
    assert_dutch(c.post("/settings/api/calendar/", follow=True).content.decode(), "a new calendar address")


def test_the_replay_names_its_viewpoints_in_dutch(dutch_player, client_for):
    match = Match.objects.filter(seats__user=dutch_player, status=Match.Status.FINISHED).get()
    page = client_for(dutch_player).get(f"/matches/{match.pk}/replay/").content.decode()
    assert "Gezien vanaf:" in page and "een toeschouwer" in page and "a spectator" not in page
    assert_dutch(page, "the replay")
