"""The token itself through the API: what it may do, and revoking it (lichess: DELETE /api/token)."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from ninja import Router, Schema, Status

from api.auth import TokenAuth, scoped
from api.shared import ERRORS

router = Router(tags=["token"])


class TokenOut(Schema):
    name: str
    scopes: list[str]
    created: datetime
    last_used: datetime | None


@router.get(
    "/token",
    response={200: TokenOut, **ERRORS},
    summary="This token: its name and scopes (any scope)",
    **scoped(TokenAuth.ANY),
)
def this_token(request: HttpRequest):
    return request.api_token


@router.delete(
    "/token",
    response={204: None, **ERRORS},
    summary="Revoke this token: it stops working at once (any scope)",
    **scoped(TokenAuth.ANY),
)
def revoke_this_token(request: HttpRequest):
    request.api_token.revoke()
    return Status(204, None)
