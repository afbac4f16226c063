"""Request bodies: a size limit before anything reads them, then only JSON a client may send.

Anything the JSON parser, the engines or PostgreSQL could choke on is a 400 here, never a 500:
invalid UTF-8, deep nesting (RecursionError), NaN and Infinity, NUL characters and lone
surrogates (PostgreSQL stores neither in a JSON column).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from ninja.parser import Parser

from api import conf
from dizzysite import safe_json


class BadBody(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def parse_json(raw: bytes) -> Any:
    """The body as JSON, or BadBody with a message for the client."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody("The body is not valid UTF-8.") from None
    try:
        return safe_json.loads(text)
    except ValueError as error:
        raise BadBody(f"The body is not JSON this API accepts: {error}.") from None


def check_size(request: HttpRequest) -> BadBody | None:
    limit = conf.get("DIZZY_API_MAX_BODY_BYTES")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return BadBody("The Content-Length header is not a number.")
    if declared > limit:
        return BadBody(f"The body is larger than {limit} bytes.", 413)
    try:
        body = request.body
    except RawPostDataException:  # read already as a form: nothing for the API
        return None
    if len(body) > limit:
        return BadBody(f"The body is larger than {limit} bytes.", 413)
    return None


def guard_body(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an API view: a body over the size limit is refused before anything reads it. An async
    view (the streams, the long poll) stays async, so the ASGI server runs it on its event loop."""
    if inspect.iscoroutinefunction(view):

        @functools.wraps(view)
        async def guarded_async(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in ("POST", "PUT", "PATCH", "DELETE"):
                error = check_size(request)  # the ASGI handler has read the body already: no I/O waits
                if error is not None:
                    return JsonResponse({"detail": str(error)}, status=error.status)
            return await view(request, *args, **kwargs)

        return guarded_async

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method in ("POST", "PUT", "PATCH", "DELETE"):
            error = check_size(request)
            if error is not None:
                return JsonResponse({"detail": str(error)}, status=error.status)
        return view(request, *args, **kwargs)

    return guarded


class GuardedParser(Parser):
    """django-ninja's body parser, after authentication: hostile JSON is a BadBody (400)."""

    def parse_body(self, request: HttpRequest) -> Any:
        return parse_json(request.body)
