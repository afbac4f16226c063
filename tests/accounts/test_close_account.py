"""Closing an account: confirmed by the password; at once signed out everywhere, tokens revoked,
devices removed, open matches cancelled, invitations declined, running matches resigned, tournaments
left; 30 days later the personal data is erased, while finished matches and ratings stay."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from allauth.usersessions.models import UserSession
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.actions import ERASE_AFTER_DAYS
from accounts.models import User
from accounts.tasks import erase_closed_accounts
from api.models import ApiToken
from games import actions
from games.actions import SeatSpec
from games.models import Match, Note
from moderation.actions import post_chat
from moderation.models import ChatMessage
from push.models import PushSubscription
from ratings.models import Rating, RatingChange
from ratings.replay import build_record, check_record
from tests.helpers import play_first_move, start_match

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    assert (
        client.post("/accounts/login/", {"login": user.username, "password": f"pw-{user.username}"}).status_code == 302
    )
    return client


def close(client: Client, password: str, capture):
    with capture(execute=True):
        return client.post("/settings/close/", {"password": password})


def test_the_wrong_password_closes_nothing(alice, django_capture_on_commit_callbacks):
    client = signed_in(alice)
    assert client.get("/settings/close/").status_code == 200
    answer = close(client, "not-it", django_capture_on_commit_callbacks)
    assert answer.status_code == 200 and "That is not your password." in answer.content.decode()
    alice.refresh_from_db()
    assert alice.is_active and alice.closed_at is None
    assert client.get("/settings/").status_code == 200


def test_closing_ends_everything_going_on_at_once(alice, bob, carol, make_user, django_capture_on_commit_callbacks):
    running = play_first_move(start_match(alice, [bob]))
    mine_open = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("open")])
    invited = actions.create_match(carol, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "alice")])
    token, _raw = ApiToken.issue(alice, "my bot")
    PushSubscription.objects.create(
        user=alice, endpoint="https://fcm.googleapis.com/fcm/send/x1", p256dh="k", auth="a", label="Firefox"
    )
    here, elsewhere = signed_in(alice), signed_in(alice)
    assert UserSession.objects.filter(user=alice).count() == 2

    answer = close(here, "pw-alice", django_capture_on_commit_callbacks)
    assert answer.status_code == 302 and answer["Location"] == "/"

    alice.refresh_from_db()
    assert alice.closed_at is not None and not alice.is_active
    assert here.get("/settings/").status_code == 302 and elsewhere.get("/settings/").status_code == 302
    assert UserSession.objects.filter(user=alice).count() == 0
    assert not any(s.get_decoded().get("_auth_user_id") == str(alice.pk) for s in Session.objects.all())
    assert ApiToken.objects.get(pk=token.pk).revoked is not None
    assert not PushSubscription.objects.filter(user=alice).exists()
    running.refresh_from_db()
    assert running.status == Match.Status.FINISHED and running.seats.get(user=alice).resigned
    assert running.moves.filter(kind="resign").exists()  # through the resign action: in the log
    assert Match.objects.get(pk=mine_open.pk).status == Match.Status.CANCELLED
    invited = Match.objects.get(pk=invited.pk)
    assert invited.status == Match.Status.OPEN and not invited.seats.filter(user=alice).exists()
    # Signed out everywhere (signing in again within the grace period reopens the account: below).
    assert here.get("/settings/").status_code == 302 and elsewhere.get("/settings/").status_code == 302


def test_closing_withdraws_from_a_tournament_not_over(alice, bob, django_capture_on_commit_callbacks):
    from tournaments.models import Entry, Tournament

    tournament = Tournament.objects.create(
        name="Cup", game="solitaire-chess", organiser=bob, starts_at=timezone.now() + timedelta(days=1)
    )
    Entry.objects.create(tournament=tournament, user=alice)
    close(signed_in(alice), "pw-alice", django_capture_on_commit_callbacks)
    assert not Entry.objects.filter(tournament=tournament, user=alice).exists()  # before the start: it goes


def finished_match(alice, bob) -> Match:
    match = start_match(alice, [bob])
    for _ in range(4):
        match = play_first_move(match)
    actions.do_save_note(match.pk, alice, "alice's private plan")
    actions.do_save_note(match.pk, bob, "bob's own plan")
    post_chat(match.pk, alice, "hello from alice")
    post_chat(match.pk, bob, "hello from bob")
    actions.do_resign(match.pk, alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_thirty_days_after_closing_the_personal_data_is_erased_and_the_records_stay(
    alice, bob, django_capture_on_commit_callbacks
):
    match = finished_match(alice, bob)
    moves = list(match.moves.values_list("number", "seat", "kind", "payload"))
    ratings = {r.pk: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    changes = RatingChange.objects.filter(match=match).count()
    assert changes == 2
    record_before = build_record(match)  # bob's copy of the match, downloaded before
    close(signed_in(alice), "pw-alice", django_capture_on_commit_callbacks)

    assert erase_closed_accounts() == 0  # within the grace period nothing is erased
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"

    User.objects.filter(pk=alice.pk).update(closed_at=timezone.now() - timedelta(days=ERASE_AFTER_DAYS, minutes=1))
    assert erase_closed_accounts() == 1
    assert erase_closed_accounts() == 0  # run twice: nothing more

    gone = User.objects.get(pk=alice.pk)
    assert gone.username == f"deleted-player-{alice.pk}" and gone.public_name == f"deleted player {alice.pk}"
    assert gone.email == "" and gone.display_name == "" and gone.first_name == "" and gone.last_name == ""
    assert not gone.has_usable_password() and not gone.emailaddress_set.exists()
    assert not Note.objects.filter(user=alice).exists()
    assert Note.objects.get(user=bob).text == "bob's own plan"
    assert set(ChatMessage.objects.filter(match=match).values_list("text", flat=True)) == {"", "hello from bob"}

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert list(match.moves.values_list("number", "seat", "kind", "payload")) == moves
    assert {r.pk: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()} == ratings
    assert RatingChange.objects.filter(match=match).count() == changes
    # The opponent's records still replay (as `manage.py replay FILE` checks them): the one
    # downloaded before, and one downloaded now, with the erased name.
    check_record(json.loads(json.dumps(record_before)))
    record_after = json.loads(json.dumps(build_record(match)))
    check_record(record_after)
    assert "alice" not in json.dumps(record_after)
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f"deleted player {alice.pk}" in page and "alice" not in page.lower().replace("deleted", "")


def test_signing_in_within_the_grace_period_reopens_the_account(alice, bob, django_capture_on_commit_callbacks):
    close(signed_in(alice), "pw-alice", django_capture_on_commit_callbacks)
    assert User.objects.get(pk=alice.pk).closed_at is not None
    wrong = Client().post("/accounts/login/", {"login": "alice", "password": "not-it"})
    assert wrong.status_code == 200 and User.objects.get(pk=alice.pk).closed_at is not None
    client = signed_in(alice)  # by username; by email works the same
    assert client.get("/settings/").status_code == 200
    reopened = User.objects.get(pk=alice.pk)
    assert reopened.closed_at is None and reopened.is_active
    assert erase_closed_accounts() == 0


def test_after_the_grace_period_or_when_banned_signing_in_opens_nothing(alice, bob, django_capture_on_commit_callbacks):
    close(signed_in(alice), "pw-alice", django_capture_on_commit_callbacks)
    User.objects.filter(pk=alice.pk).update(closed_at=timezone.now() - timedelta(days=ERASE_AFTER_DAYS, minutes=1))
    late = Client()
    late.post("/accounts/login/", {"login": "alice@example.com", "password": "pw-alice"})
    assert "_auth_user_id" not in late.session
    assert not User.objects.get(pk=alice.pk).is_active
    close(signed_in(bob), "pw-bob", django_capture_on_commit_callbacks)
    User.objects.filter(pk=bob.pk).update(banned=True)
    Client().post("/accounts/login/", {"login": "bob", "password": "pw-bob"})
    assert not User.objects.get(pk=bob.pk).is_active
