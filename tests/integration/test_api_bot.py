"""The example bot (examples/random_bot.py) against the real server until its match ends.

The bot is another process that speaks HTTP to pytest-django's live server, using only the API: it
creates a match against a random bot seat, lists its turns, reads its view, plays random legal
moves with the version and long-polls events. The bot seat moves in place (Celery runs eagerly in
the tests), so no worker is needed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from api.models import ApiToken
from games.models import Match, Move

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_bot_plays_a_match_to_its_end(live_server, transactional_db, make_user, settings):
    settings.DIZZY_API_LONGPOLL_SECONDS = 2
    robot = make_user("robot", is_bot=True)
    token = ApiToken.issue(robot, "example bot")[1]
    command = [sys.executable, str(ROOT / "examples" / "random_bot.py"), "--url", live_server.url, "--token", token]
    command += ["--create", "dizzy-duo-battle", "--option", "lives=1", "--until-over", "--seed", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = run.stdout[-3000:] + run.stderr[-3000:]
    assert run.returncode == 0, output
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED, output
    assert "is over" in run.stdout and match.seats.get(user=robot).number == 0
    played = Move.objects.filter(match=match, seat=0, by_bot=False).count()
    assert played > 0 and run.stdout.count("played ") == played, output
    assert ApiToken.objects.get().last_used is not None
