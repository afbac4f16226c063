"""Helpers for the API's tests: a client with a token, a JSON POST. Not a test module."""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
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


def body_of(response) -> bytes:
    """A response's whole body, also a streaming one whose content is async (a long poll that waited)."""
    if not response.streaming:
        return response.content
    if not response.is_async:
        return b"".join(response.streaming_content)

    async def collect() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    return async_to_sync(collect)()


def json_of(response):
    return json.loads(body_of(response))
