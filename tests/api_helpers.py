"""Helpers for the API's tests (issue 27): a client with a token, a JSON POST. Not a test module."""

from __future__ import annotations

import json

from django.test import Client

from api.models import ApiToken


def api_client(raw: str | None) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}") if raw else Client()


def token(user, scopes: list[str] | None = None, name: str = "test") -> str:
    """A raw token of `user` with these scopes (all the user may have when None)."""
    return (ApiToken.issue(user, name) if scopes is None else ApiToken.issue(user, name, scopes))[1]


def client_of(user, scopes: list[str] | None = None) -> Client:
    return api_client(token(user, scopes))


def post_json(client: Client, url: str, body, **extra):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **extra)
