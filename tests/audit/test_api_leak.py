"""The audit's API surfaces can fail: a leak planted in the API's view alone is found (issue 18)."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import actions
from games.actions import SeatSpec
from tests.audit.test_hidden_information import Audit

pytestmark = [pytest.mark.audit, pytest.mark.django_db]


@pytest.mark.parametrize("leak", ["hands in the API view", "seed in the calendar"])
def test_the_audit_catches_a_leak_planted_in_the_api(leak, make_user, monkeypatch):
    users = [make_user("p0"), make_user("p1")]
    match = actions.create_match(users[0], "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("invite", "p1")])
    actions.do_join(match.pk, users[1])
    match.refresh_from_db()
    if leak == "hands in the API view":
        from api import present

        original = present.view_for
        monkeypatch.setattr(
            "api.api.view_for", lambda match, user: {**original(match, user), "waiting_for": str(match.state["hands"])}
        )
    else:
        from api import calendar

        original_build = calendar.build
        monkeypatch.setattr(
            "api.views.ical.build",
            lambda user: original_build(user) + f"X-LEAK:{_state_of(user)}".encode(),
        )
    spectator = Client()
    spectator.force_login(make_user("watcher"))
    with pytest.raises(AssertionError, match="changes with what the viewer may not know|the seed leaks"):
        Audit(match, users).check_state(random.Random(1), spectator)


def _state_of(user) -> str:
    from games.models import Match

    match = Match.objects.filter(seats__user=user).first()
    return str(match.state["rng"]["seed"]) if match else ""


def test_the_audit_reads_the_new_api_surfaces_of_a_finished_match(make_user, monkeypatch):
    """Issue 27: a player's exported matches are read too; the seed planted in them is caught."""
    users = [make_user("p0"), make_user("p1")]
    match = actions.create_match(users[0], "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "p1")])
    actions.do_join(match.pk, users[1])
    actions.do_adjudicate(match.pk, [0], "a test")
    match.refresh_from_db()
    from api import export

    original = export.facts
    monkeypatch.setattr("api.export.facts", lambda m: {**original(m), "leak": m.seed})
    spectator = Client()
    spectator.force_login(make_user("watcher"))
    with pytest.raises(AssertionError, match="the seed leaks"):
        Audit(match, users).check_state(random.Random(1), spectator)
