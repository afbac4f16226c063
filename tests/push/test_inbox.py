"""The inbox can be cleared. Showing it changes nothing (a prefetch or a mail
scanner opens pages too); reading, marking all read, deleting and muting a match are POSTs; pages
are keyset pages; plain forms, so all of it works without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from notifications.models import Kind, Notification
from notifications.service import notify
from tests.helpers import counted_translations, start_match
from tests.push_endpoint import PushEndpoint, device_for

pytestmark = pytest.mark.django_db


def bell(c) -> int:
    return int(re.search(r'data-count="(\d+)"', c.get("/inbox/bell/").content.decode()).group(1))


def many_unread(match, user, count: int) -> list[Notification]:
    Notification.objects.filter(recipient=user).delete()
    return Notification.objects.bulk_create(
        [Notification(match=match, recipient=user, kind=Kind.YOUR_TURN, turn=100 + n) for n in range(count)]
    )


def entry_ids(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'action="/inbox/(\d+)/delete/"', page)]


@pytest.mark.slow
def test_136_unread_are_cleared_by_mark_all_read_and_not_by_looking(alice, bob, client_for):
    match = start_match(alice, [bob])
    many_unread(match, bob, 136)
    c = client_for(bob)
    for _ in range(3):
        assert c.get("/inbox/").status_code == 200
    assert bell(c) == 136  # showing the inbox read nothing: a prefetch cannot clear it
    page = c.get("/inbox/").content.decode()
    assert 'action="/inbox/read-all/"' in page and "Mark all read (136 new)" in page
    assert c.post("/inbox/read-all/", {"upto": max(entry_ids(page))}).status_code == 302
    assert bell(c) == 0 and not Notification.objects.filter(recipient=bob, read_at__isnull=True).exists()
    assert "Mark all read" not in c.get("/inbox/").content.decode()


def test_mark_all_read_leaves_what_came_after_the_page(alice, bob, client_for):
    match = start_match(alice, [bob])
    rows = many_unread(match, bob, 3)
    c = client_for(bob)
    later = notify(match, bob, Kind.FINISHED, 999)
    assert c.post("/inbox/read-all/", {"upto": max(row.pk for row in rows)}).status_code == 302
    assert bell(c) == 1 and Notification.objects.get(pk=later.pk).read_at is None
    assert c.post("/inbox/read-all/", {"upto": "x"}).status_code == 400
    assert bell(c) == 1


def test_keyset_pages_show_every_entry_once(alice, bob, client_for):
    match = start_match(alice, [bob])
    rows = many_unread(match, bob, 136)
    c = client_for(bob)
    seen, url, pages = [], "/inbox/", 0
    while url:
        page = c.get(url).content.decode()
        seen += entry_ids(page)
        older = re.search(r'href="(/inbox/\?before=\d+)" rel="next"', page)
        url, pages = older.group(1) if older else None, pages + 1
    assert pages == 3 and seen == sorted((row.pk for row in rows), reverse=True)
    assert bell(c) == 136
    assert c.get("/inbox/?before=abc").status_code == 400
    assert c.get("/inbox/?before=-1").status_code == 400


def test_one_entry_is_read_by_a_post_only(alice, bob, client_for):
    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.FINISHED, 500)
    c = client_for(bob)
    before = bell(c)
    assert c.get(f"/inbox/{row.pk}/read/").status_code == 405
    assert client_for(alice).post(f"/inbox/{row.pk}/read/").status_code == 404  # not hers
    assert bell(c) == before
    assert c.post(f"/inbox/{row.pk}/read/").status_code == 302
    assert bell(c) == before - 1


def test_a_tapped_push_marks_its_entry_read_by_a_post(alice, bob, client, client_for):
    from push.payloads import push_payload

    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.FINISHED, 500)
    read = push_payload(row)["read"].removeprefix("http://127.0.0.1:8000")
    assert client.get(read).status_code == 405 and Notification.objects.get(pk=row.pk).read_at is None
    assert client.post(read.replace("/seen/", "/seen/x")).status_code == 400
    assert client.post(read).status_code == 204  # the service worker's POST, without the page's cookie
    assert Notification.objects.get(pk=row.pk).read_at is not None


def test_delete_removes_an_entry_for_good(alice, bob, client_for):
    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.FINISHED, 500)
    c = client_for(bob)
    before = bell(c)
    assert client_for(alice).post(f"/inbox/{row.pk}/delete/").status_code == 404
    assert c.get(f"/inbox/{row.pk}/delete/").status_code == 405
    assert c.post(f"/inbox/{row.pk}/delete/").status_code == 302
    assert row.pk not in entry_ids(c.get("/inbox/").content.decode()) and bell(c) == before - 1
    assert notify(match, bob, Kind.FINISHED, 500) is None  # a repeated task does not bring it back
    assert c.post(f"/inbox/{row.pk}/delete/").status_code == 404


def test_a_muted_match_makes_no_entry_email_or_push_until_unmuted(
    alice, bob, client_for, django_capture_on_commit_callbacks
):
    from notifications.models import MatchMute  # the model: imported here, so the rest runs on older code

    match = start_match(alice, [bob])
    other = start_match(alice, [bob])
    c = client_for(bob)
    with PushEndpoint() as endpoint:
        phone = device_for(bob, endpoint, "bob")
        assert c.post("/inbox/mute/", {"match": match.pk}).status_code == 302
        assert MatchMute.objects.filter(user=bob, match=match).exists()
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            assert notify(match, bob, Kind.FINISHED, 700) is None
            assert notify(other, bob, Kind.FINISHED, 700) is not None  # another match still speaks
        assert not Notification.objects.filter(recipient=bob, match=match, turn=700).exists()
        assert [m.to for m in mail.outbox] == [[bob.email]] and len(endpoint.to(phone.endpoint)) == 1
        page = c.get("/inbox/").content.decode()
        assert "Muted matches" in page and f'name="match" value="{match.pk}"' in page and "Unmute" in page
        assert c.post("/inbox/unmute/", {"match": match.pk}).status_code == 302
        with django_capture_on_commit_callbacks(execute=True):
            assert notify(match, bob, Kind.FINISHED, 701) is not None
        assert len(endpoint.to(phone.endpoint)) == 2


def test_only_ones_own_match_can_be_muted(alice, bob, carol, client_for):
    from notifications.models import MatchMute

    match = start_match(alice, [bob])
    c = client_for(carol)
    for bad in ({"match": match.pk}, {"match": "x"}, {}, {"match": "99999999"}):
        assert c.post("/inbox/mute/", bad).status_code == 400
    assert c.get("/inbox/mute/").status_code == 405
    assert not MatchMute.objects.exists()


def test_the_inbox_is_plain_forms_with_named_buttons(alice, bob, client_for):
    match = start_match(alice, [bob])
    row = notify(match, bob, Kind.FINISHED, 500)
    page = client_for(bob).get("/inbox/").content.decode()
    for action in (f"/inbox/{row.pk}/read/", f"/inbox/{row.pk}/delete/", "/inbox/mute/", "/inbox/read-all/"):
        form = re.search(rf'<form method="post" action="{re.escape(action)}"[^>]*>(.*?)</form>', page, re.S)
        assert form and "csrfmiddlewaretoken" in form.group(1), action
    # Each button says which entry it acts on, to a screen reader too.
    assert f'Mark read<span class="sr-only">: A match has finished, Solitaire Chess #{match.pk}</span>' in page


def test_the_inbox_speaks_dutch(alice, bob, client_for):
    bob.language = "nl"
    bob.save()
    match = start_match(alice, [bob])
    notify(match, bob, Kind.CHAT, 1)
    c = client_for(bob)
    page = c.get("/inbox/").content.decode()
    for words in ("Alles als gelezen markeren", "Als gelezen markeren", "Verwijderen", "Deze partij dempen"):
        assert words in page, words
    assert "Nieuwe berichten in de chat van een partij" in page and "Gedempte partijen" in page
    answer = c.post("/inbox/mute/", {"match": match.pk}, follow=True).content.decode()
    assert "is gedempt" in answer and "Dempen opheffen" in answer


def inbox_costs(c) -> tuple[int, int, str]:
    """(queries, translations, SQL) of one inbox page."""
    with CaptureQueriesContext(connection) as queries, counted_translations() as translations:
        assert c.get("/inbox/").status_code == 200
    return len(queries), translations.call_count, "\n".join(q["sql"] for q in queries.captured_queries)


def test_a_full_inbox_page_costs_no_query_and_few_translations_a_row(alice, bob, client_for):
    """The page's time was its 50 rows, mostly get_kind_display (it translates every kind's
    label for each row) and the columns the rows read but never show (the match's state among them)."""
    match = start_match(alice, [bob])
    c = client_for(bob)
    many_unread(match, bob, 1)
    one_queries, one_translations, _ = inbox_costs(c)
    many_unread(match, bob, 60)
    queries, translations, sql = inbox_costs(c)
    assert len(entry_ids(c.get("/inbox/").content.decode())) == 50
    assert queries == one_queries
    # A row translates its label, its game's name and its buttons' words (7 for an unread match's
    # row); get_kind_display translated every kind's label, 11 more.
    assert translations - one_translations <= 49 * 8
    assert '"games_match"."state"' not in sql and '"games_match"."history_tail"' not in sql
    assert '"notifications_notification"."error"' not in sql


def test_an_entry_names_its_kind_as_get_kind_display_did(alice, bob):
    match = start_match(alice, [bob])
    for language in ("en", "nl"):
        with translation.override(language):
            for kind in Kind:
                row = Notification(match=match, recipient=bob, kind=kind, turn=1)
                assert row.kind_label == row.get_kind_display()
    assert Notification(match=match, recipient=bob, kind="gone", turn=1).kind_label == "gone"


CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">')


def reversals(c, url: str, monkeypatch) -> tuple[int, str]:
    """(URL reversals, page) of one inbox page: every reverse() and url() goes through the resolver's
    _reverse_with_prefix."""
    from django.urls.resolvers import URLResolver

    calls = []
    original = URLResolver._reverse_with_prefix

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return original(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(URLResolver, "_reverse_with_prefix", counted)
        response = c.get(url)
    assert response.status_code == 200
    return len(calls), CSRF_FIELD.sub("<csrf>", response.content.decode())


def expected_row(row: Notification, muted: set[int], before: int) -> str:
    """An inbox row as the player gets it: its link, time in their zone and forms, each form keeping
    the page (`before`), each button naming its entry to a screen reader."""
    from django.template.defaultfilters import date as date_filter
    from django.utils import timezone

    keep = f'<input type="hidden" name="before" value="{before}">'
    name, label = f"Solitaire Chess #{row.match_id}", row.kind_label
    new = row.read_at is None
    html = '<span class="badge">New</span>' if new else ""  # found rows lose the blanks between tags
    html += f'<a href="/matches/{row.match_id}/">{label}: {name}</a>'
    html += f'<span class="muted">{date_filter(timezone.localtime(row.created), "SHORT_DATETIME_FORMAT")}</span>'
    html += '<span class="inbox-actions">'
    if new:
        html += f'<form method="post" action="/inbox/{row.pk}/read/" class="inline"><csrf>{keep}'
        html += f'<button type="submit">Mark read<span class="sr-only">: {label}, {name}</span></button></form>'
    html += f'<form method="post" action="/inbox/{row.pk}/delete/" class="inline"><csrf>{keep}'
    html += f'<button type="submit">Delete<span class="sr-only">: {label}, {name}</span></button></form>'
    action, words = ("unmute", "Unmute") if row.match_id in muted else ("mute", "Mute this match")
    html += f'<form method="post" action="/inbox/{action}/" class="inline"><csrf>'
    html += f'<input type="hidden" name="match" value="{row.match_id}">{keep}'
    html += f'<button type="submit">{words}<span class="sr-only">: {name}</span></button></form></span>'
    return html


def test_an_inbox_page_reverses_its_addresses_once_and_shows_each_row_whole(alice, bob, client_for, monkeypatch):
    """A page's 50 rows reverse no address of their own (three a row were much of its time);
    every row keeps its link, time, forms, hidden `before` and screen-reader names all the same."""
    import zoneinfo
    from datetime import datetime, timedelta

    from django.utils import timezone

    from notifications.models import MatchMute

    bob.time_zone = "Pacific/Auckland"  # the times are the viewer's, not the server's
    bob.save()
    loud, quiet = start_match(alice, [bob]), start_match(alice, [bob])
    MatchMute.objects.create(user=bob, match=quiet)
    c = client_for(bob)
    kinds = [Kind.YOUR_TURN, Kind.FINISHED, Kind.REMINDER]
    rows = Notification.objects.bulk_create(
        Notification(match=(loud, quiet)[n % 2], recipient=bob, kind=kinds[n % 3], turn=100 + n) for n in range(60)
    )
    start = datetime(2026, 3, 1, 9, 5, tzinfo=zoneinfo.ZoneInfo("UTC"))
    for n, row in enumerate(rows):
        read_at = timezone.now() if n % 4 == 0 else None
        Notification.objects.filter(pk=row.pk).update(created=start + timedelta(hours=7 * n), read_at=read_at)
    before = rows[55].pk
    with monkeypatch.context() as patch:
        patch.setattr("push.views.INBOX_SIZE", 1)  # the same page (older pages, newer ones) of one row
        one_row, _ = reversals(c, f"/inbox/?before={before}", monkeypatch)
    full_page, page = reversals(c, f"/inbox/?before={before}", monkeypatch)
    assert full_page == one_row  # none a row
    shown = list(Notification.objects.filter(pk__lt=before, recipient=bob).order_by("-pk")[:50])
    assert [row.pk for row in shown] == [row.pk for row in reversed(rows[5:55])]
    inbox = page.split('<ul class="inbox">')[1].split("</ul>")[0]
    found = [re.sub(r">\s+<", "><", li.strip()) for li in re.findall(r"<li[^>]*>(.*?)</li>", inbox, re.S)]
    with timezone.override(zoneinfo.ZoneInfo("Pacific/Auckland")):
        assert found == [expected_row(row, {quiet.pk}, before) for row in shown]
    assert page.count('<li class="new">') == sum(row.read_at is None for row in shown) > 0
    assert f'<a href="/inbox/?before={rows[5].pk}" rel="next">Older</a>' in page
    assert '<a href="/inbox/">Newest</a>' in page
    # The muted section: the muted match, its link and its unmute form, keeping the page too.
    muted = page.split('id="muted-heading"')[1]
    assert f'<li><a href="/matches/{quiet.pk}/">Solitaire Chess #{quiet.pk}</a>' in muted
    assert (
        f'<form method="post" action="/inbox/unmute/" class="inline"><csrf><input type="hidden" name="match" '
        f'value="{quiet.pk}"><input type="hidden" name="before" value="{before}"><button type="submit">Unmute'
        f'<span class="sr-only">: Solitaire Chess #{quiet.pk}</span></button></form></li>'
    ) in muted


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_rows_time_is_written_as_the_date_filter_writes_it(language):
    """The inbox writes its rows' times itself (names translated once a page), exactly as Django's
    date filter writes the site's one short date style (dizzysite/formats) in the viewer's language
    and zone, through a year of days and hours."""
    import zoneinfo
    from datetime import datetime, timedelta

    from django.template.defaultfilters import date as date_filter
    from django.utils import formats, timezone

    from dizzysite.dates import PageDates
    from push.views import INBOX_TIME

    start = datetime(2026, 1, 1, 0, 7, tzinfo=zoneinfo.ZoneInfo("UTC"))
    moments = [start + timedelta(hours=11 * n, minutes=n) for n in range(800)]
    with translation.override(language), timezone.override(zoneinfo.ZoneInfo("America/St_Johns")):
        written = PageDates(formats.get_format(INBOX_TIME))
        expected = [date_filter(timezone.localtime(moment), "SHORT_DATETIME_FORMAT") for moment in moments]
        assert [written(moment) for moment in moments] == expected
    assert len({text.split()[2] for text in expected}) == 12 and len({text.split()[0] for text in expected}) == 7
    assert {text.split()[-1] for text in expected} == {"NST", "NDT"}  # the zone, as the board's times say it


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "Sun 1 Mar, 22:05 NZDT"), ("nl", "zo 1 mrt, 22:05 NZDT")],
)
def test_the_inbox_writes_its_times_in_the_sites_style_language_and_zone(alice, bob, client_for, language, written):
    """The site's one date style: Dutch names its days and months in Dutch, the month small."""
    import zoneinfo
    from datetime import datetime

    bob.time_zone, bob.language = "Pacific/Auckland", language
    bob.save()
    row = Notification.objects.create(match=start_match(alice, [bob]), recipient=bob, kind=Kind.YOUR_TURN, turn=1)
    Notification.objects.filter(pk=row.pk).update(created=datetime(2026, 3, 1, 9, 5, tzinfo=zoneinfo.ZoneInfo("UTC")))
    page = client_for(bob).get("/inbox/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<span class="muted">{written}</span>' in page
    if language == "nl":
        assert "Mar" not in page.split('<ul class="inbox">')[1].split("</ul>")[0]
