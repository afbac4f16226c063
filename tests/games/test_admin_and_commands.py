"""Moderation in the Django admin, the demo accounts and the selfplay command."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Match
from tests.helpers import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user("mod", is_staff=True, is_superuser=True)


def test_admin_lists_and_searches_matches(staff, alice, bob, client_for):
    match = start_match(alice, [bob])
    c = client_for(staff)
    listing = c.get("/admin/games/match/?q=bob&status__exact=active")
    assert listing.status_code == 200 and f"/admin/games/match/{match.pk}/change/" in listing.content.decode()
    detail = c.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "Engine state" in detail and "&quot;cards&quot;" in detail  # staff read the whole state
    for url in ("/admin/games/seat/", "/admin/games/move/", "/admin/accounts/user/?q=alice"):
        assert c.get(url).status_code == 200


def test_admin_abort_action_goes_through_the_action(staff, alice, bob, client_for):
    match = start_match(alice, [bob])
    c = client_for(staff)
    asking = c.post("/admin/games/match/", {"action": "abort_matches", "_selected_action": [match.pk]})
    assert asking.status_code == 200 and 'name="reason"' in asking.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # nothing happens before the moderator says why
    c.post(
        "/admin/games/match/",
        {"action": "abort_matches", "_selected_action": [match.pk], "apply": "1", "reason": "players asked"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and "players asked" in match.end_reason
    assert not match.seats.filter(to_act=True).exists()


def test_admin_is_closed_to_players(alice, client_for):
    assert client_for(alice).get("/admin/games/match/").status_code == 302


def test_demo_accounts_are_idempotent():
    out = StringIO()
    call_command("demo_accounts", stdout=out)
    call_command("demo_accounts", stdout=out)
    from accounts.models import User

    assert User.objects.filter(username__in=["alice", "bob"]).count() == 2
    assert User.objects.get(username="alice").check_password("dizzy-alice-2026")
    assert "alice / dizzy-alice-2026" in out.getvalue()


def test_selfplay_prints_a_line_per_match_and_a_json_summary():
    out = StringIO()
    call_command(
        "selfplay", "solitaire-chess", "--matches", "3", "--seed", "4", "--option", "ruleset=final", stdout=out
    )
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("match ") for line in lines[:3])
    summary = json.loads(lines[-1])
    assert summary["matches"] == 3 and summary["finished"] == 3 and summary["moves"] > 0
    assert sum(summary["wins"].values()) + summary["draws"] >= 3
    again = StringIO()
    call_command(
        "selfplay", "solitaire-chess", "--matches", "3", "--seed", "4", "--option", "ruleset=final", stdout=again
    )
    assert again.getvalue().splitlines()[:3] == lines[:3]  # the same seed plays the same matches


@pytest.mark.parametrize(
    "args, message",
    [
        (["no-such-game"], "unknown game"),
        (["solitaire-chess", "--option", "ruleset=chaos"], "Rule set"),
        (["solitaire-chess", "--option", "nonsense"], "key=value"),
        (["solitaire-chess", "--bot", "genius"], "no bot"),
    ],
)
def test_selfplay_refuses_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("selfplay", *args, stdout=StringIO())
