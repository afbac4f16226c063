from django.urls import path

from api import docs, views
from api.api import api
from api.guard import guard_body


def _guarded(patterns):
    """Every API view checks its request body first (size, hostile JSON): see api/guard.py."""
    for pattern in patterns:
        pattern.callback = guard_body(pattern.callback)
    return patterns


_api_patterns, _app_name, _namespace = api.urls

urlpatterns = [
    path("api/v1/docs", docs.page, name="api_docs"),
    path("api/v1/", (_guarded(_api_patterns), _app_name, _namespace)),
    path("settings/api/", views.tokens, name="api_tokens"),
    path("settings/api/<int:token_id>/revoke/", views.revoke, name="api_token_revoke"),
    path("settings/api/calendar/", views.regenerate_calendar, name="api_calendar_regenerate"),
    path("settings/api/bot/", views.become_bot, name="api_become_bot"),
    path("calendar/<str:token>.ics", views.calendar, name="api_calendar"),
]
