"""Pages that must not grow with the history: the dashboard and the admin's match list
make the same queries for a player with many finished matches as for one with few, and the admin's
search finds a player's matches by their username or email in any case, or a match by its id."""

from __future__ import annotations

import html
import re
import zoneinfo
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.contrib import admin as django_admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, get_resolver, reverse
from django.utils import timezone, translation

from dizzysite import jinja2 as jinja2_env
from dizzysite.dates import PageDates
from games import actions
from games import views as games_views
from games.actions import SeatSpec
from games.models import Match, Seat
from games.presenters import history_page
from moderation import admin_matches
from ratings import views as ratings_views
from tests.helpers import counted_translations, play_first_move, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user("mod", is_staff=True, is_superuser=True)


def finish(match: Match) -> Match:
    match.status = Match.Status.FINISHED
    # Words naming a seat, as the engines' ends do: the list fills in the player's name.
    match.end_reason = "alice is the last player with lives left."
    match.end_reason_words = {"msg": "{player} is the last player with lives left.", "args": {"player": "{p0}"}}
    match.save()
    return match


def queries_of(client, path: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries), response.content.decode()


def test_the_dashboard_reads_the_same_queries_however_many_matches_finished(alice, bob, client_for):
    running = start_match(alice, [bob])
    finished = [finish(start_match(alice, [bob])) for _ in range(2)]
    c = client_for(alice)
    few, page = queries_of(c, "/")
    assert f"/matches/{running.pk}/" in page and all(f"/matches/{m.pk}/" in page for m in finished)
    assert "alice is the last player with lives left." in page
    more = [finish(start_match(alice, [bob])) for _ in range(5)]
    many, page = queries_of(c, "/")
    assert many == few
    assert all(f"/matches/{m.pk}/" in page for m in more)


def test_the_dashboard_names_the_opponents_of_its_running_rows_in_the_query_of_their_matches(
    alice, bob, carol, client_for
):
    """A running row names whom it is played against: the seats and their users come with the
    matches, in the one query that read the matches alone, not in a second one."""
    c = client_for(alice)
    none, _ = queries_of(c, "/")
    for _ in range(3):
        start_match(alice, [bob, carol], game="dizzy-duo-battle")
    running, page = queries_of(c, "/")
    assert running == none + 1  # the running rows' one query
    assert page.count("Against bob, carol") + page.count("Against carol, bob") == 3
    assert "alice" not in page.split("Your turn (")[1].split("Invitations")[0]


def test_the_dashboards_rows_translate_their_own_status_only(alice, bob, client_for):
    """Get_status_display translated all five statuses' labels for each of the 60 rows; a
    finished match's names are read from the seats and users' few columns they need."""
    c = client_for(alice)
    start_match(alice, [bob]), finish(start_match(alice, [bob]))
    with counted_translations() as few:
        c.get("/")
    for _ in range(5):
        start_match(alice, [bob]), finish(start_match(alice, [bob]))
    with CaptureQueriesContext(connection) as captured, counted_translations() as many:
        page = c.get("/").content.decode()
    # A row: its status, game, "started ..." and "... ago" (3 or 4; a finished one its end too).
    assert many.call_count - few.call_count <= 10 * 5
    assert page.count("In play, started") == 6 and page.count("Finished, started") == 6
    assert page.count("alice is the last player with lives left.") == 6
    names = [
        q["sql"] for q in captured.captured_queries if 'FROM "games_seat" LEFT OUTER JOIN "accounts_user"' in q["sql"]
    ]
    assert len(names) == 1 and '"accounts_user"."password"' not in names[0]
    with translation.override("nl"):
        assert Match(status=Match.Status.FINISHED).status_label == "Afgelopen"
    assert Match(status="gone").status_label == "gone"


def test_the_admin_match_list_reads_the_same_queries_however_many_matches(staff, alice, bob, client_for):
    start_match(alice, [bob])
    c = client_for(staff)
    few, _ = queries_of(c, "/admin/games/match/")
    for _ in range(4):
        start_match(alice, [bob])
    many, page = queries_of(c, "/admin/games/match/")
    assert many == few
    assert "5 matches" in page


def test_the_admin_search_finds_a_players_matches_by_name_email_or_id(staff, alice, bob, make_user, client_for):
    carol = make_user("carol")
    theirs, other = start_match(alice, [bob]), start_match(carol, [make_user("dave")])
    c = client_for(staff)
    for term in ("BOB", "bob@example.com", str(theirs.pk)):
        _, page = queries_of(c, f"/admin/games/match/?q={term}")
        assert f"/admin/games/match/{theirs.pk}/change/" in page, term
        assert f"/admin/games/match/{other.pk}/change/" not in page, term
    _, page = queries_of(c, "/admin/games/match/?q=nobody")
    assert f"/admin/games/match/{theirs.pk}/change/" not in page


def test_the_admin_search_lists_a_players_newest_matches_and_says_so(staff, alice, bob, client_for, monkeypatch):
    """A player's thousands of matches were joined, counted and sorted for a page of 50. The
    search reads their newest SEARCH_MATCHES from the seats' index (a subquery with a LIMIT), the
    sidebar's filters choose among those, and the page says so when older ones are left out."""
    monkeypatch.setattr(admin_matches, "SEARCH_MATCHES", 3)
    matches = [start_match(alice, [bob]) for _ in range(5)]
    for match in (matches[0], matches[3]):
        finish(match)
    c = client_for(staff)
    with CaptureQueriesContext(connection) as captured:
        page = c.get("/admin/games/match/?q=bob").content.decode()
    listed = {int(pk) for pk in re.findall(r'href="/admin/games/match/(\d+)/change/', page)}
    assert listed == {m.pk for m in matches[2:]}  # the newest three
    assert "3 matches" in page and "Only the newest 3 matches of a player are searched" in page
    found = [q["sql"] for q in captured.captured_queries if q["sql"].startswith('SELECT "games_match"."id"')]
    assert len(found) == 1 and "ORDER BY 1 DESC LIMIT 3)" in found[0]  # bounded, whatever the player's count
    finished = c.get("/admin/games/match/?q=bob&status__exact=finished").content.decode()
    listed = {int(pk) for pk in re.findall(r'href="/admin/games/match/(\d+)/change/', finished)}
    assert listed == {matches[3].pk}  # among the newest three; the oldest is found by its id
    oldest = c.get(f"/admin/games/match/?q={matches[0].pk}").content.decode()
    assert f"/admin/games/match/{matches[0].pk}/change/" in oldest
    # The rows' links keep the search and the filter for the way back, as the admin writes them.
    back = "?_changelist_filters=q%3Dbob%26status__exact%3Dfinished"
    assert f'href="/admin/games/match/{matches[3].pk}/change/{back}"' in finished
    with translation.override("nl"):
        assert "Alleen de nieuwste 3 partijen" in admin_matches.older_matches_hint()


def test_the_admin_search_reads_the_same_queries_however_many_matches(staff, alice, bob, client_for):
    start_match(alice, [bob])
    c = client_for(staff)
    few, _ = queries_of(c, "/admin/games/match/?q=alice")
    for _ in range(4):
        finish(start_match(alice, [bob]))
    many, page = queries_of(c, "/admin/games/match/?q=alice")
    assert many == few
    assert "5 matches" in page and page.count("alice, bob") == 5


def admin_table(page: str) -> str:
    """The list's table, its whitespace between tags left out (the two templates space them apart alike
    but not to the byte)."""
    table = re.search(r'<div class="results">.*?</table>', page, re.S)
    assert table is not None, page
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", table.group(0)))


def admins_own_table(user, path: str) -> str:
    """The table as the admin's own result_list draws the same changelist: its items_for_result for each
    cell, the match admin's players column and its rows' addresses included."""
    from django.contrib.admin.templatetags.admin_list import result_list
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.urls import resolve

    request = RequestFactory().get(path)
    request.user, request.resolver_match = user, resolve(request.path)  # the filters the row links keep
    changelist = django_admin.site._registry[Match].get_changelist_instance(request)
    changelist.formset = None  # as changelist_view sets it for a list without list_editable
    for match in changelist.result_list:  # the admin's players column reads the seats of each match
        match.seats.all()
    return admin_table(render_to_string("admin/change_list_results.html", result_list(changelist)))


def test_the_admin_match_list_draws_the_admins_own_table(staff, alice, bob, make_user, client_for):
    """The list's rows are drawn from cells prepared once a page, not by the admin's
    items_for_result: the same headers and sort links, checkboxes, cells, row links with the list's
    filters, in the moderator's language and time zone, searched, filtered, sorted and in a popup."""
    moderator = make_user("nlmod", is_staff=True, is_superuser=True, language="nl", time_zone="Europe/Amsterdam")
    running = start_match(alice, [bob])
    finish(start_match(bob, ["random"]))
    actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")], options={})
    paths = [
        "/admin/games/match/",
        "/admin/games/match/?q=bob&o=-6.2",
        "/admin/games/match/?q=bob&status__exact=finished",
        "/admin/games/match/?game=solitaire-chess&o=3.-1",
        f"/admin/games/match/?q={running.pk}",
        "/admin/games/match/?_popup=1&_to_field=id",
    ]
    for user, language, zone in ((staff, "en", "UTC"), (moderator, "nl", "Europe/Amsterdam")):
        c = client_for(user)
        for path in paths:
            drawn = admin_table(c.get(path).content.decode())
            with translation.override(language), timezone.override(zoneinfo.ZoneInfo(zone)):
                assert drawn == admins_own_table(user, path), path
    page = client_for(staff).get("/admin/games/match/?q=bob&o=-6.2").content.decode()
    assert page.count('name="_selected_action"') == 2 and 'id="action-toggle"' in page
    assert f'href="/admin/games/match/{running.pk}/change/?_changelist_filters=q%3Dbob%26o%3D-6.2"' in page
    # Sorted by created, newest first, then by game: its toggle sorts the oldest first.
    assert re.search(r'<a href="\?[^"]*\bo=6\.2\b[^"]*" class="toggle descending"', page)
    assert '<span class="sortpriority" title="Sorting priority: 2">2</span>' in page
    assert '<td class="field-players">alice, bob</td>' in page
    assert '<td class="field-players">bob, Random bot</td>' in page
    assert "Abort the selected matches (nobody wins)" in page
    popup = client_for(staff).get("/admin/games/match/?_popup=1&_to_field=id").content.decode()
    assert f'data-popup-opener="{running.pk}"' in popup and 'name="_selected_action"' not in popup


def test_the_admin_match_list_leaves_the_sidebar_off_and_the_others_keep_it(staff, client_for):
    """The sidebar of every app and model was a fifth of the match list's drawing; the list
    leaves it off, and the apps are listed only on a page that draws them (DizzyAdminSite.get_app_list)."""
    c = client_for(staff)
    assert 'id="nav-sidebar"' not in c.get("/admin/games/match/").content.decode()
    seats = c.get("/admin/games/seat/").content.decode()
    assert 'id="nav-sidebar"' in seats and 'href="/admin/games/match/"' in seats
    index = c.get("/admin/").content.decode()
    assert 'href="/admin/games/match/"' in index and 'href="/admin/accounts/user/"' in index
    assert 'href="/admin/games/seat/"' in c.get("/admin/games/").content.decode()


def test_the_admin_match_lists_dates_are_the_admins_own():
    """PageDates writes a page's datetimes as the admin's formats.localize does: in each language and
    zone, across midnight, noon and a change of summer time, for any format Django reads."""
    from datetime import UTC, datetime, timedelta

    from django.utils import dateformat, formats

    start = datetime(2026, 3, 28, 22, 0, 30, tzinfo=UTC)
    values = [start + timedelta(minutes=37 * step) for step in range(120)]  # over 29 March's change of hour
    for language, zone in (("en", "UTC"), ("nl", "Europe/Amsterdam"), ("en", "America/New_York")):
        with translation.override(language), timezone.override(zoneinfo.ZoneInfo(zone)):
            dates = PageDates(formats.get_format("DATETIME_FORMAT"), "-")
            assert [dates(value) for value in values] == [
                formats.localize(timezone.template_localtime(value)) for value in values
            ]
            assert dates(None) == "-"
            for custom in (r"D, j \de F Y \a\t P e O", "c r U T Z I", "l jS o-W N y b E L t w z a A g G h H i s u"):
                dates = PageDates(custom, "-")
                assert [dates(value) for value in values] == [
                    dateformat.format(timezone.template_localtime(value), custom) for value in values
                ], custom


def test_the_admin_match_list_makes_a_few_queries(staff, alice, bob, client_for):
    """A page of the list: the session, the user, the estimated count (a table this small is then
    counted), the matches, their seats, the seats' users; the search counts exactly and finds its
    players and whether it left older matches out."""
    for _ in range(3):
        start_match(alice, [bob])
    c = client_for(staff)
    assert queries_of(c, "/admin/games/match/")[0] <= 7
    assert queries_of(c, "/admin/games/match/?q=alice&status__exact=active")[0] <= 8


def test_the_profile_charts_a_ratings_last_hundred_matches(alice, bob, client_for):
    from ratings.models import Rating, RatingChange

    rating = Rating.objects.create(game="solitaire-chess", pool="people", user=alice, matches=105, mu=35.5)
    matches = Match.objects.bulk_create(
        [Match(game="solitaire-chess", created_by=alice, status=Match.Status.FINISHED) for _ in range(105)]
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            match=match,
            seat=0,
            rating=rating,
            outcome="won",
            mu_before=25 + n / 10,
            sigma_before=5.0,
            mu_after=25 + (n + 1) / 10,
            sigma_after=5.0,
        )
        for n, match in enumerate(matches)
    )
    page = client_for(bob).get("/players/alice/").content.decode()
    assert "From 1530 to 2130 over the last 100 of 105 rated matches" in page
    assert f"Match #{matches[5].pk}:" in page and f"Match #{matches[4].pk}:" not in page


def test_the_dashboard_shows_a_page_of_each_list_with_a_keyset_link_to_the_older(alice, bob, client_for, monkeypatch):
    monkeypatch.setattr(games_views, "DASHBOARD_PAGE", 2)
    c = client_for(alice)
    for _ in range(2):
        start_match(alice, [bob]), start_match(bob, [alice])
    few, _ = queries_of(c, "/")
    for _ in range(3):
        start_match(alice, [bob]), start_match(bob, [alice])
    many, page = queries_of(c, "/")
    assert many == few  # however many running matches
    running = Seat.objects.filter(user=alice, match__status=Match.Status.ACTIVE).order_by("-match_id")
    # Who moves first is drawn per match: alice's turn in every other one, so that each list has five.
    ids = list(running.values_list("match_id", flat=True))
    running.filter(match_id__in=ids[::2]).update(to_act=True)
    running.filter(match_id__in=ids[1::2]).update(to_act=False)
    page = c.get("/").content.decode()
    turn = list(running.filter(to_act=True).values_list("match_id", flat=True))
    waiting = list(running.filter(to_act=False).values_list("match_id", flat=True))
    assert (len(turn), len(waiting)) == (5, 5)
    shown = {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', page)}
    assert shown == set(turn[:2] + waiting[:2])  # two rows a list, newest first
    assert "(5)" in page  # the turn count is of all five
    assert f'href="/?your_turn_before={turn[1]}"' in page and f'href="/?waiting_before={waiting[1]}"' in page
    older = c.get(f"/?your_turn_before={turn[1]}").content.decode()
    assert {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', older)} == set(turn[2:4] + waiting[:2])
    last = c.get(f"/?your_turn_before={turn[3]}").content.decode()
    assert f"/matches/{turn[4]}/" in last and 'href="/?your_turn_before=' not in last  # the last page: no link on


def test_the_dashboards_open_matches_need_no_distinct(alice, bob, carol, client_for):
    open_match = actions.create_match(bob, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    with CaptureQueriesContext(connection) as captured:
        page = client_for(alice).get("/").content.decode()
    assert f"/matches/{open_match.pk}/" in page
    assert not [q for q in captured.captured_queries if "DISTINCT" in q["sql"]]  # a sort of every open match


def test_the_dashboards_indexes_hold_what_its_lists_read():
    # The running and open seats of a player with thousands of matches are found from the two indexes
    # alone (a merge join of their index-only scans: 846 buffers on the full database, was 9,814).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('match_going_on', 'seat_player_matches')"
        )
        found = dict(cursor.fetchall())
    assert "INCLUDE (status)" in found["match_going_on"]
    assert "INCLUDE (to_act, handed_to_bot, accepted)" in found["seat_player_matches"]


def test_the_profiles_charts_are_kept_until_the_ratings_next_match(alice, bob, client):
    charts = re.compile(r'<figure class="rating-chart">.*?</details>', re.S)
    first_match = start_match(alice, [bob])
    actions.do_adjudicate(first_match.pk, [0], "test")
    with mock.patch.object(ratings_views, "render_to_string", wraps=ratings_views.render_to_string) as draw:
        first = client.get("/players/alice/")
        assert draw.call_count == 1
        with CaptureQueriesContext(connection) as captured:
            again = client.get("/players/alice/")
        assert draw.call_count == 1  # 600 values a rating, not redrawn
        assert not [q for q in captured.captured_queries if "ratings_ratingchange" in q["sql"]]  # nor read
        assert charts.findall(again.content.decode()) == charts.findall(first.content.decode())
        assert len(charts.findall(first.content.decode())) == 1
        client.get("/players/alice/", headers={"accept-language": "nl"})
        assert draw.call_count == 2  # each language its own
        second_match = start_match(alice, [bob])
        actions.do_adjudicate(second_match.pk, [1], "test")
        after = client.get("/players/alice/")
        assert draw.call_count == 3  # the rating moved: drawn anew
    assert f"/matches/{second_match.pk}/replay/" in charts.findall(after.content.decode())[0]


def test_the_profiles_chart_writes_its_numbers_with_a_point_in_every_language(alice, bob, client):
    """SVG reads "184.0", never "184,0" (Django's floatformat wrote the Dutch comma into the chart)."""
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [0], "test")
    for language in ("en", "nl"):
        page = client.get("/players/alice/", headers={"accept-language": language}).content.decode()
        svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
        numbers = re.findall(r' (?:x|y|x1|x2|y1|y2)="([^"]*)"', svg)
        assert len(numbers) > 10 and all(re.fullmatch(r"-?\d+(\.\d)?", n) for n in numbers), numbers


def test_the_profiles_recent_matches_read_only_what_they_show(alice, bob, client_for):
    """The recent matches decoded each match's board tail and loaded whole user rows."""
    match = finish(start_match(alice, [bob]))
    with CaptureQueriesContext(connection) as captured:
        page = client_for(bob).get("/players/alice/").content.decode()
    assert f"/matches/{match.pk}/" in page
    seats = [q["sql"] for q in captured.captured_queries if q["sql"].startswith('SELECT "games_seat"')]
    assert seats, "the recent matches read seats"
    for sql in seats:
        for column in ('"games_match"."history_tail"', '"games_match"."state"', '"accounts_user"."password"'):
            assert column not in sql, (column, sql)


def test_the_dashboards_rows_reverse_no_address_of_their_own(alice, bob, client_for):
    """Each row reversed its match's address (about 70 µs a row, 60 rows); the board
    templates' url() reverses a one-id address once per process and fills each row's id in."""
    c = client_for(alice)
    matches = [start_match(alice, [bob]) for _ in range(4)]
    c.get("/")
    with mock.patch("dizzysite.jinja2.reverse", wraps=jinja2_env.reverse) as spy:
        page = c.get("/").content.decode()
    assert spy.call_count == 0
    assert all(f'<a href="/matches/{m.pk}/">' in page for m in matches)


def test_the_templates_url_is_reverse():
    """url() of the Jinja2 templates gives what reverse() gives, for every address of one argument."""
    resolver = get_resolver()
    one_argument = [
        name
        for name in resolver.reverse_dict
        if isinstance(name, str) and any(len(params) == 1 for _, params in resolver.reverse_dict.getlist(name)[0][0])
    ]
    assert {"match", "replay", "history", "inbox_read", "player"} <= set(one_argument)
    for name in one_argument:
        for value in (0, 7, 123456789):
            try:
                expected = reverse(name, args=[value])
            except NoReverseMatch:
                with pytest.raises(NoReverseMatch):
                    jinja2_env.url(name, value)
            else:
                assert jinja2_env.url(name, value) == expected, name
    assert jinja2_env.url("player", "alice") == reverse("player", args=["alice"])
    assert jinja2_env.url("fill_seat", 5, 1) == reverse("fill_seat", args=[5, 1])
    assert jinja2_env.url("home") == reverse("home")
    with pytest.raises(NoReverseMatch):
        jinja2_env.url("match", -1)


def test_the_history_page_reads_the_moves_not_the_board(alice, bob, client_for, monkeypatch):
    """The whole history of a long match is its own page: the board's view, presenter and parts (the
    chat, the rating changes) are the board page's cost, not this one's."""
    match = play_first_move(start_match(alice, [bob]))
    expected = [t for _, texts in history_page(match, bob).history for t in texts]
    assert expected

    def no_board(*args, **kwargs):
        raise AssertionError("the history page drew the board")

    monkeypatch.setattr("games.presenters.board_context", no_board)
    monkeypatch.setattr("games.views.player_view", no_board)
    page = html.unescape(client_for(bob).get(f"/matches/{match.pk}/history/").content.decode())
    assert all(text in page for text in expected)


def test_the_dashboards_rows_write_their_start_as_a_date_in_the_page_language(alice, bob, client_for):
    match = start_match(alice, [bob])
    Match.objects.filter(pk=match.pk).update(started=datetime(2026, 3, 5, 23, 30, tzinfo=UTC))
    alice.time_zone = "Europe/Amsterdam"  # 6 March there already
    alice.save()
    page = client_for(alice).get("/").content.decode()
    assert '<time class="ago" datetime="2026-03-05T23:30:00+00:00">6 Mar 2026</time>' in page
    alice.language = "nl"
    alice.save()
    page = client_for(alice).get("/").content.decode()
    assert '<time class="ago" datetime="2026-03-05T23:30:00+00:00">6 mrt 2026</time>' in page
