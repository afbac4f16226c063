"""Replays and records of finished matches: every game from start to end, the record round trip."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core.management import CommandError, call_command

from games import actions
from games.engines.registry import available_engines, get_engine
from games.i18n import entry_text_for
from games.models import fill_names
from tests.helpers import play_against_random_bots, start_match
from tests.hostile import HOSTILE

pytestmark = pytest.mark.django_db


def next_link(page: str) -> str | None:
    found = re.search(r'href="([^"]+)" rel="next"', page)
    return unescape(found.group(1)) if found else None


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_replay_steps_from_start_to_end(slug, alice, client, django_capture_on_commit_callbacks):
    match = play_against_random_bots(alice, slug, django_capture_on_commit_callbacks)
    url = f"/matches/{match.pk}/replay/"
    response = client.get(url + "?at=0")
    assert response.status_code == 200
    seen = [0]
    while (link := next_link(response.content.decode())) is not None:
        response = client.get(url + link)
        assert response.status_code == 200, link
        seen.append(int(re.search(r"at=(\d+)", link).group(1)))
    assert seen == list(range(match.version + 1))
    page = response.content.decode()
    assert f"Position after move {match.version} of {match.version}" in page and "(the end)" in page
    # ALL-3: every log entry is shown, the private ones too, next to the board; to this anonymous
    # reader a private one names its seat instead of saying "you".
    names = match.seat_names()
    for move in match.moves.all():
        for entry in move.log:
            if entry.get("audience", "all") == "all":
                assert fill_names(entry["text"], names) in unescape(page), entry
            else:
                assert fill_names(entry_text_for(entry, None), names) in unescape(page), entry
    for seat in range(match.seats.count()):
        assert client.get(f"{url}?at=1&seat={seat}").status_code == 200


def test_replay_and_record_of_a_running_match_do_not_exist(alice, bob, client_for):
    match = start_match(alice, [bob])
    for url in (f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/record.json"):
        assert client_for(alice).get(url).status_code == 404


def test_replay_parameters_out_of_range_are_clamped(alice, bob, client):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [0], "test")
    for query in ("?at=-5", "?at=99999", "?at=abc", "?seat=7", "?seat=x&at=0"):
        assert client.get(f"/matches/{match.pk}/replay/{query}").status_code == 200, query


@pytest.mark.slow
@pytest.mark.parametrize("slug", ["solitaire-chess", "lizzy-ghosties"])
def test_record_round_trip(slug, alice, client, tmp_path, django_capture_on_commit_callbacks):
    match = play_against_random_bots(alice, slug, django_capture_on_commit_callbacks)
    response = client.get(f"/matches/{match.pk}/record.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["game"] == slug and record["seed"] == match.seed and len(record["moves"]) == match.version
    assert record["result"] == match.result and not record["adjudicated"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("replay", str(path))  # no error: the replay ends as recorded

    record["result"] = {**record["result"], "winners": [9]}
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="mismatch"):
        call_command("replay", str(path))
    record["moves"] = record["moves"][:-1]
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="mismatch"):
        call_command("replay", str(path))
    path.write_text("{not json")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("replay", str(path))


def test_record_of_an_adjudicated_match_replays(alice, bob, make_user, client, tmp_path):
    from moderation.actions import adjudicate

    match = start_match(alice, [bob])
    adjudicate(make_user("mod", is_staff=True), match.pk, [1], "test")
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert record["adjudicated"] and record["result"]["winners"] == [1]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("replay", str(path))


def test_admin_replay_uses_the_shared_loop(alice, bob, make_user, client_for):
    staff = make_user("mod", is_staff=True, is_superuser=True)
    match = start_match(alice, [bob])
    mover = match.seats.get(to_act=True).user
    actions.do_move(
        match.pk, mover, 0, get_engine(match.game).legal_moves(match.state, match.seats.get(user=mover).number)[0]
    )
    match.refresh_from_db()
    page = client_for(staff).get(f"/admin/games/match/{match.pk}/replay/?n=1").content.decode()
    shown = re.search(r"<pre[^>]*>(.*?)</pre>", page, re.S).group(1)
    assert json.loads(unescape(shown)) == match.state


@pytest.mark.slow
def test_hostile_values_in_the_new_pages_are_never_a_500(alice, bob, client_for):
    """the paths and query parameters get the fuzz suite's worst values (tests/hostile.py)."""
    from urllib.parse import quote_from_bytes

    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [0], "test")
    c = client_for(alice)
    c.raise_request_exception = False
    failures = []
    for label, value in HOSTILE.items():
        text = quote_from_bytes(value[:200])
        urls = [f"/players/{text}/", f"/leaderboards/solitaire-chess/?page={text}&pool={text}"]
        urls += [
            f"/matches/{match.pk}/replay/?at={text}&seat={text}",
            f"/matches/new/?game=solitaire-chess&invite={text}",
        ]
        for url in urls:
            if c.get(url).status_code >= 500:
                failures.append(f"GET {url[:60]} ({label})")
    for number in ("9" * 30, "9" * 5000):
        for url in (f"/matches/{number}/replay/", f"/matches/{number}/record.json"):
            if c.get(url).status_code >= 500:
                failures.append(f"GET {url[:40]}")
        if c.post(f"/matches/{number}/rematch/").status_code >= 500:
            failures.append(f"POST rematch {number[:10]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("reason", "language", "written"),
    [
        ("out of lives", "en", "alice, bob. Out of lives.</p>"),
        ("geen levens meer", "nl", "alice, bob. Geen levens meer.</p>"),
    ],
)
def test_a_replays_first_line_ends_as_a_sentence(alice, bob, client_for, reason, language, written):
    """Some engines' ends are phrases: after the players' names they read as a sentence of their own."""
    from games.models import Match

    match = start_match(alice, [bob], game="doubting-flower-field")
    actions.do_adjudicate(match.pk, [0], "test")
    Match.objects.filter(pk=match.pk).update(end_reason=reason, end_reason_words={})
    page = client_for(alice).get(f"/matches/{match.pk}/replay/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert written in page
