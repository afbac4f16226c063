"""A copy of a player's data: asked for with a POST on the settings page, built by a task, mailed as
a link that only its player, signed in, can follow until it expires. It holds the player's own part
of their matches and never another's hidden information or email."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import DataExport
from accounts.tasks import export_user_data
from api.models import ApiToken
from games import actions
from games.models import Match
from moderation.actions import block_user, post_chat
from push.models import PushSubscription
from tests.helpers import play_first_move, start_match, user_to_act

pytestmark = pytest.mark.django_db

HIDDEN_KEYS = {"state", "seed", "rng"}


def all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in all_keys(v)}
    return set()


@pytest.fixture
def played(alice, bob, carol):
    """alice and bob played a match to its end (bob resigned); both wrote notes, alice chatted."""
    match = start_match(alice, [bob])
    for _ in range(6):  # both seats have moved by then, whoever began
        match = play_first_move(match)
    actions.do_save_note(match.pk, alice, "my plan: the knight")
    actions.do_save_note(match.pk, bob, "bob's secret plan")
    post_chat(match.pk, alice, "good luck!")
    post_chat(match.pk, bob, "you too")
    actions.do_resign(match.pk, bob)
    block_user(alice, "carol")
    ApiToken.issue(alice, "my bot", ["play"])
    PushSubscription.objects.create(
        user=alice,
        endpoint="https://fcm.googleapis.com/fcm/send/abcdefghijklmnopqrstuvwxyz0123456789",
        p256dh="k",
        auth="a",
        label="Firefox on Linux",
    )
    match.refresh_from_db()
    return match


def ask(user, capture) -> tuple[Client, DataExport]:
    client = Client()
    client.force_login(user)
    with capture(execute=True):
        answer = client.post("/settings/data/")
    assert answer.status_code == 302 and answer["Location"] == "/settings/"
    return client, DataExport.objects.get(user=user)


def test_the_copy_holds_the_players_own_data_and_nothing_hidden(played, alice, bob, django_capture_on_commit_callbacks):
    client, export = ask(alice, django_capture_on_commit_callbacks)
    archive = export.archive
    assert {"profile", "matches", "chat_messages", "notifications", "push_devices", "api_tokens"} <= set(archive)
    assert {"rating_history", "tournament_entries", "blocks", "reports"} <= set(archive)
    assert archive["profile"]["username"] == "alice" and archive["profile"]["email"] == "alice@example.com"
    [match] = archive["matches"]
    assert {"id", "game", "status", "created", "started", "ended", "seat", "result", "moves", "notes"} <= set(match)
    assert match["id"] == played.pk and match["status"] == "finished" and match["result"] == "won"
    alice_seat = played.seats.get(user=alice).number
    assert match["moves"] and all(m["kind"] == "move" for m in match["moves"])
    own = played.moves.filter(seat=alice_seat, kind="move").values_list("number", flat=True)
    assert [m["number"] for m in match["moves"]] == list(own)
    assert played.moves.exclude(seat=alice_seat).filter(kind="move").exists()  # bob's are left out
    assert match["notes"] == "my plan: the knight"
    assert [m["text"] for m in archive["chat_messages"]] == ["good luck!"]
    assert archive["api_tokens"][0]["name"] == "my bot" and archive["api_tokens"][0]["scopes"] == ["play"]
    assert set(archive["api_tokens"][0]) == {"name", "scopes", "created", "last_used", "revoked"}
    assert archive["push_devices"][0]["endpoint"].endswith("…")
    assert "abcdefghijklmnopqrstuvwxyz" not in json.dumps(archive)
    assert archive["blocks"][0]["player"] == "carol"
    assert archive["rating_history"]["ratings"][0]["history"][0]["match"] == played.pk

    assert all_keys(archive) & HIDDEN_KEYS == set()
    text = json.dumps(archive)
    assert "bob@example.com" not in text and "bob's secret plan" not in text and "you too" not in text
    assert played.seed not in text


def test_the_link_is_mailed_and_only_its_player_can_follow_it_until_it_expires(
    played, alice, bob, django_capture_on_commit_callbacks
):
    client, export = ask(alice, django_capture_on_commit_callbacks)
    [email] = mail.outbox
    assert email.to == ["alice@example.com"]
    url = re.search(r"https?://\S+", email.body).group(0)
    path = url.split("://", 1)[1].split("/", 1)[1]
    path = "/" + path
    assert path == f"/settings/data/{export.token}/"

    download = client.get(path)
    assert download.status_code == 200 and download["Content-Type"].startswith("application/json")
    assert "attachment" in download["Content-Disposition"]
    assert json.loads(download.content)["profile"]["username"] == "alice"
    assert client.post(path).status_code == 405  # a GET only reads
    assert DataExport.objects.get(pk=export.pk).ready_at == export.ready_at

    bobs = Client()
    bobs.force_login(bob)
    assert bobs.get(path).status_code == 404
    assert Client().get(path).status_code == 302  # signed out: to the sign-in page first
    assert client.get("/settings/data/not-a-token/").status_code == 404

    DataExport.objects.filter(pk=export.pk).update(expires=timezone.now() - timedelta(seconds=1))
    assert client.get(path).status_code == 404


def test_the_task_is_safe_to_run_twice_and_the_settings_page_offers_it(
    played, alice, django_capture_on_commit_callbacks
):
    client, export = ask(alice, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        assert export_user_data(alice.pk) == 0
    assert len(mail.outbox) == 1 and DataExport.objects.filter(user=alice).count() == 1
    page = client.get("/settings/").content.decode()
    assert 'action="/settings/data/"' in page and f"/settings/data/{export.token}/" in page
    assert "/settings/close/" in page


def test_a_match_still_running_is_in_the_copy_without_the_others_seats(alice, bob, django_capture_on_commit_callbacks):
    match = play_first_move(start_match(alice, [bob]))
    mover = user_to_act(match).user
    _client, export = ask(mover, django_capture_on_commit_callbacks)
    [entry] = export.archive["matches"]
    assert entry["status"] == Match.Status.ACTIVE and entry["result"] is None
    assert all_keys(export.archive) & HIDDEN_KEYS == set()
