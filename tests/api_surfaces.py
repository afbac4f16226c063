"""What the hidden-information audit reads through the API: for one viewer, every API
response about a match and the viewer's calendar feed, as text to compare with the hidden twin's.

The viewer is the user logged in on the audit's client (none: anonymous, who gets the API's 401).
A fresh token per reading keeps the audit's many requests clear of the rate limit.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.test import Client

from api.models import ApiToken, CalendarFeed
from tests.api_helpers import body_of


def _text(response) -> str:
    """JSON with its characters as they are (not \\u escapes), so the audit's text search sees them."""
    if response["Content-Type"].startswith("application/x-ndjson"):
        return f"{response.status_code} " + body_of(response).decode()
    if response["Content-Type"].startswith("application/json"):
        return f"{response.status_code} " + json.dumps(response.json(), ensure_ascii=False, sort_keys=True)
    return f"{response.status_code} " + response.content.decode()


def api_surfaces(client: Client, match_id: int) -> list[str]:
    user_id = client.session.get("_auth_user_id")
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    api = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'audit')[1]}") if user else Client()
    readings = [
        api.get(f"/api/v1/matches/{match_id}/view"),
        api.get(f"/api/v1/matches/{match_id}"),
        api.get(f"/api/v1/matches/{match_id}/events?since=0"),
        # the streams (served here by WSGI, each answers what is now and ends)
        api.get(f"/api/v1/stream/match/{match_id}"),
        api.get("/api/v1/stream/event"),
        api.get("/api/v1/matches?filter=all"),
        # seeks and challenges (open matches), a player's finished matches (NDJSON)
        api.get("/api/v1/seeks"),
        api.get("/api/v1/challenges"),
    ]
    if user is not None:
        readings.append(api.get(f"/api/v1/users/{user.username}/matches"))
    record = api.get(f"/api/v1/matches/{match_id}/record")
    if record.status_code != 200:  # refused while running; public once finished (ALL-3), the seed too
        readings.append(record)
    if user is not None:
        readings.append(Client().get(f"/calendar/{CalendarFeed.for_user(user).token}.ics"))
    return [_text(r) for r in readings]
