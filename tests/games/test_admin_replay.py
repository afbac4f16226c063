"""Replaying a match's seed and move log rebuilds the stored state exactly, for every game: tested
through the admin's own replay page (the code moderators use), timeouts included."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from games.actions import SeatSpec
from games.engines.registry import available_engines, get_engine
from games.models import Match
from games.tasks import sweep_deadlines
from moderation.models import ModerationLog

pytestmark = pytest.mark.django_db

# Short matches keep this test quick; the engines' own tests play the long ones.
SHORT_OPTIONS = {"dizzy-duo-battle": {"lives": 4}}
STATE = re.compile(r'<pre class="engine-state">(.*?)</pre>', re.S)


@pytest.fixture
def staff_client(make_user, client_for):
    return client_for(make_user("mod", is_staff=True, is_superuser=True))


def admin_replay(client, match: Match, upto: int) -> dict:
    """The state the admin's replay page shows after move `upto`."""
    page = client.get(f"/admin/games/match/{match.pk}/replay/?n={upto}")
    assert page.status_code == 200
    return json.loads(html.unescape(STATE.search(page.content.decode()).group(1)))


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_the_admin_replay_rebuilds_the_stored_state(slug, alice, staff_client, django_capture_on_commit_callbacks):
    engine = get_engine(slug)
    bots = [SeatSpec("bot", "random") for _ in range(engine.min_players - 1)]
    # The human seat plays random legal moves too, through the same action as the pages.
    with django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(alice, slug, [SeatSpec("me"), *bots], options=SHORT_OPTIONS.get(slug))
    for _ in range(engine.max_moves(engine.min_players, match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in engine.to_act(match.state):
            with django_capture_on_commit_callbacks(execute=True):
                actions.do_move(match.pk, alice, match.version, engine.legal_moves(match.state, 0)[-1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.moves.count() == match.version > 0
    assert admin_replay(staff_client, match, match.version) == match.state
    start = engine.new_state(engine.min_players, match.options, int(match.seed))
    assert admin_replay(staff_client, match, 0) == start
    assert ModerationLog.objects.filter(match=match, action__startswith="replayed to move").count() == 2


def test_the_admin_replay_includes_timeouts(alice, bob, staff_client):
    """A Final Match timeout (SC-7) applied by the deadline sweep replays as the engine's timeout."""
    from tests.helpers import play_first_move, start_match

    match = play_first_move(start_match(alice, [bob], options={"ruleset": "final"}))  # scored, not aborted
    late = match.seats.get(to_act=True)
    past = timezone.now() - timedelta(minutes=1)
    match.seats.update(reserve_left=0)
    match.seats.filter(pk=late.pk).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    assert sweep_deadlines() == 1
    assert sweep_deadlines() == 0  # applied once
    match.refresh_from_db()
    assert match.moves.filter(kind="timeout").count() == 1
    assert admin_replay(staff_client, match, match.version) == match.state
