"""An ended match's moves compacted into one MoveArchive row. What anyone sees of the match
(the replay, the history page, the record, the API, the admin's replay, the emails) is byte for byte
what it was with the Move rows; the sweep archives only matches ended long enough ago, a batch at a
time, oldest first, by its partial index."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.middleware import csrf
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api.models import ApiToken
from games import actions
from games.engines.registry import available_engines
from games.models import ENDED_STATUSES, Match, Move, MoveArchive
from games.reads import match_moves
from games.tasks import archive_ended_matches
from notifications.context import email_context
from notifications.models import Notification
from ratings.replay import build_record
from tests.conftest import require
from tests.helpers import play_against_random_bots, play_first_move, start_match, time_out, user_to_act

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def same_csrf_mask(monkeypatch):
    """A page's CSRF token is masked afresh on every response: one mask, so two renders of the same
    page are the same bytes."""
    monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda: "a" * csrf.CSRF_SECRET_LENGTH)


def api_client(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'test')[1]}")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def get(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content


def what_everyone_sees(match: Match, player, spectator, staff) -> dict[str, object]:
    """Every page and answer that reads the match's moves, for a player, a logged-in spectator and
    an anonymous visitor."""
    match.refresh_from_db()
    anonymous, mine, theirs, admin = Client(), logged_in(player), logged_in(spectator), logged_in(staff)
    mine_api, theirs_api = api_client(player), api_client(spectator)
    m, middle = match.pk, match.version // 2
    seen = {"record": json.dumps(build_record(match), sort_keys=True).encode()}
    for at in ("", "?at=0", "?at=1", f"?at={middle}", f"?at={middle}&seat=0", "?seat=1"):
        seen[f"replay{at}"] = get(anonymous, f"/matches/{m}/replay/{at}")
        seen[f"player's replay{at}"] = get(mine, f"/matches/{m}/replay/{at}")
    for name, client in (("player", mine), ("spectator", theirs), ("visitor", anonymous)):
        seen[f"{name}'s history"] = get(client, f"/matches/{m}/history/")
        seen[f"{name}'s board"] = get(client, f"/matches/{m}/")
    seen["record.json"] = get(anonymous, f"/matches/{m}/record.json")
    for name, client in (("player", mine_api), ("spectator", theirs_api)):
        seen[f"{name}'s API view"] = get(client, f"/api/v1/matches/{m}/view")
        seen[f"{name}'s API record"] = get(client, f"/api/v1/matches/{m}/record")
    seen["API export"] = b"".join(mine_api.get(f"/api/v1/users/{player.username}/matches?moves=true"))
    for n in ("", "?n=0", "?n=1", f"?n={middle}"):
        seen[f"admin replay{n}"] = get(admin, f"/admin/games/match/{m}/replay/{n}")
    rows = Notification.objects.filter(match=match).order_by("pk")
    seen["emails"] = json.dumps([email_context(row) for row in rows], default=str).encode()
    moves = [(m.number, m.seat, m.kind, m.payload, m.log, m.by_bot, m.created) for m in match_moves(match)]
    seen["moves"] = moves  # equal, not the same bytes: PostgreSQL's jsonb orders a stored log's keys its own way
    return seen


def assert_archived_unchanged(match: Match, player, spectator, staff) -> None:
    before = what_everyone_sees(match, player, spectator, staff)
    rows, version, revision = Move.objects.filter(match=match).count(), match.version, match.revision
    assert rows == match.version > 0
    assert actions.do_archive_moves(match.pk) is True
    match.refresh_from_db()
    assert match.moves_archived and (match.version, match.revision) == (version, revision)
    assert Move.objects.filter(match=match).count() == 0
    assert len(MoveArchive.objects.get(match=match).moves) == rows
    after = what_everyone_sees(match, player, spectator, staff)
    assert before.keys() == after.keys()
    for name in before:
        assert after[name] == before[name], name


@pytest.fixture
def staff(make_user):
    return make_user("mod", is_staff=True, is_superuser=True)


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_a_whole_match_reads_the_same_once_archived(slug, alice, carol, staff, django_capture_on_commit_callbacks):
    match = play_against_random_bots(alice, slug, django_capture_on_commit_callbacks)
    assert_archived_unchanged(match, alice, carol, staff)


def timed_out_then_resigned(alice, bob) -> Match:
    """Solitaire Chess, Final Match: both play, one runs out of time (a "timeout" step: their pieces go,
    the other plays on), the other plays and then resigns (a "resign" step ends it)."""
    match = start_match(alice, [bob], options={"ruleset": "final", "advantage": "random"})
    match = play_first_move(play_first_move(match))
    time_out(match)
    match = play_first_move(match)
    actions.do_resign(match.pk, user_to_act(match).user)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert {m.kind for m in match.moves.all()} == {"move", "timeout", "resign"}
    return match


def test_a_timeout_and_a_resignation_read_the_same_once_archived(alice, bob, carol, staff, tmp_path):
    match = timed_out_then_resigned(alice, bob)
    assert build_record(match)["ended_by"] == "resigned"
    assert_archived_unchanged(match, alice, carol, staff)
    # manage.py replay checks the record of the archived match: its signature, its moves, its end.
    path = tmp_path / "record.json"
    path.write_bytes(Client().get(f"/matches/{match.pk}/record.json").content)
    call_command("replay", str(path))
    assert [m.kind for m in match_moves(match)][-1] == "resign"
    page = logged_in(staff).get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert re.search(rf'Moves archived:</label>\s*<div class="readonly">{match.version}</div>', page)


def test_the_archive_leaves_out_the_logs_the_engine_writes_again(alice, bob):
    """The engine's logs (moves and timeouts) are replayed from the seed when read; the resignation's
    log is the site's and stays in the archive."""
    match = timed_out_then_resigned(alice, bob)
    logs = {m.number: m.log for m in match.moves.all()}
    assert actions.do_archive_moves(match.pk) is True
    archived = MoveArchive.objects.get(match=match).moves
    assert all(log is None for _n, _s, kind, _p, log, _b, _t in archived if kind != "resign")
    assert {kind for _n, _s, kind, _p, _l, _b, _t in archived} == {"move", "timeout", "resign"}
    resigned = archived[-1]
    assert resigned[2] == "resign" and resigned[4] == logs[resigned[0]] != []
    cache.clear()
    assert {m.number: m.log for m in match_moves(match)} == logs


def test_a_match_that_no_longer_replays_keeps_every_log(alice, bob):
    match = timed_out_then_resigned(alice, bob)
    logs = {m.number: m.log for m in match.moves.all()}
    Move.objects.filter(match=match, number=1).update(payload={"type": "no such move"})
    assert actions.do_archive_moves(match.pk) is True
    archived = MoveArchive.objects.get(match=match).moves
    assert [row[4] for row in archived] == [logs[row[0]] for row in archived]


def test_archiving_twice_changes_nothing_the_second_time(alice, bob, monkeypatch):
    match = timed_out_then_resigned(alice, bob)
    published = []
    monkeypatch.setattr("games.events.publish", published.append)
    monkeypatch.setattr("games.actions.common.publish", published.append)
    assert actions.do_archive_moves(match.pk) is True
    archive = MoveArchive.objects.get(match=match).moves
    match.refresh_from_db()
    saved = Match.objects.filter(pk=match.pk).values().get()
    assert actions.do_archive_moves(match.pk) is False
    assert Match.objects.filter(pk=match.pk).values().get() == saved
    assert MoveArchive.objects.get(match=match).moves == archive
    assert published == []  # nothing a player sees changed: no BoardChanged, no other event


def test_a_running_match_is_not_archived(alice, bob):
    match = play_first_move(start_match(alice, [bob]))
    assert actions.do_archive_moves(match.pk) is False
    match.refresh_from_db()
    assert not match.moves_archived and Move.objects.filter(match=match).count() == 1
    assert not MoveArchive.objects.filter(match=match).exists()


def ended(alice, bob, ago: timedelta, status: str = Match.Status.FINISHED) -> Match:
    """A match that ended `ago`, with a move of each player (an abort by the moderators or a resignation)."""
    match = play_first_move(play_first_move(start_match(alice, [bob])))
    if status == Match.Status.ABORTED:
        actions.do_abort(match.pk, bob, "test")
    else:
        actions.do_resign(match.pk, alice)
    Match.objects.filter(pk=match.pk).update(ended=timezone.now() - ago)
    return Match.objects.get(pk=match.pk)


def test_the_sweep_archives_a_batch_of_the_matches_ended_long_enough_ago(alice, bob, settings):
    assert ENDED_STATUSES == [Match.Status.FINISHED, Match.Status.ABORTED]
    settings.MOVE_ARCHIVE_AFTER_SECONDS, settings.MOVE_ARCHIVE_BATCH = 3600, 2
    old = [
        ended(alice, bob, timedelta(hours=5)),
        ended(alice, bob, timedelta(hours=3), Match.Status.ABORTED),
        ended(alice, bob, timedelta(hours=2)),
    ]
    recent = ended(alice, bob, timedelta(minutes=50))
    running = play_first_move(start_match(alice, [bob]))
    assert archive_ended_matches() == 2
    assert set(Match.objects.filter(moves_archived=True).values_list("pk", flat=True)) == {old[0].pk, old[1].pk}
    assert archive_ended_matches() == 1
    assert archive_ended_matches() == 0
    assert set(Match.objects.filter(moves_archived=True).values_list("pk", flat=True)) == {m.pk for m in old}
    for match in (recent, running):
        assert Move.objects.filter(match=match).count() == match.version
    assert Move.objects.filter(match__in=old).count() == 0


def test_the_command_archives_the_whole_backlog(alice, bob, settings):
    settings.MOVE_ARCHIVE_AFTER_SECONDS = 3600
    old = [ended(alice, bob, timedelta(days=30 + n)) for n in range(3)]
    recent = ended(alice, bob, timedelta(minutes=5))
    call_command("archive_moves", "--batch", "1")
    assert Match.objects.filter(moves_archived=True).count() == 1
    call_command("archive_moves", "--all", "--batch", "1")
    assert set(Match.objects.filter(moves_archived=True).values_list("pk", flat=True)) == {m.pk for m in old}
    assert not Match.objects.get(pk=recent.pk).moves_archived


def test_the_sweep_reads_its_partial_index(alice, bob):
    require(connection.vendor == "postgresql", "the plan is PostgreSQL's")
    ended(alice, bob, timedelta(hours=2))
    with CaptureQueriesContext(connection) as captured:
        assert len(actions.matches_to_archive(500)) == 1
    (query,) = captured.captured_queries  # the sweep's own query, its values in it
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # the test's few rows would be read whole
        cursor.execute(f"EXPLAIN {query['sql']}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "match_moves_to_archive" in plan, plan
