"""Under overload a move waits or gets a clear 503 with Retry-After, never a 500, and nothing of it
is written (the error rolls its transaction back)."""

from __future__ import annotations

import json

import pytest
import redis
from django.db import OperationalError

from games.actions import play
from games.models import Match
from tests.helpers import start_match, user_to_act

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "error",
    [OperationalError("too many clients already"), redis.exceptions.ConnectionError("Too many connections")],
)
def test_a_move_the_database_or_redis_cannot_take_is_a_503_and_changes_nothing(
    alice, bob, client_for, monkeypatch, error
):
    match = start_match(alice, [bob], options={"advantage": "0"})
    mover = user_to_act(match).user
    move = play.parse_move(json.dumps({"type": "order", "first": True}))
    real_apply = play._apply_move

    def overloaded(*args, **kwargs):
        real_apply(*args, **kwargs)  # the move is applied inside the transaction ...
        raise error  # ... and then the database (or Redis) gives out before the commit

    monkeypatch.setattr(play, "_apply_move", overloaded)
    response = client_for(mover).post(
        f"/matches/{match.pk}/move/", {"version": match.version, "move": json.dumps(move)}
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "nothing was changed" in response.content.decode()
    assert Match.objects.get(pk=match.pk).version == match.version


def test_other_errors_stay_errors(rf):
    from dizzysite.overload import OverloadMiddleware

    middleware = OverloadMiddleware(lambda request: None)
    assert middleware.process_exception(rf.get("/"), ValueError("a bug")) is None
