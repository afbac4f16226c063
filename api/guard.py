"""Request bodies: a size limit before anything reads them, then only JSON a client may send.

Anything the JSON parser, the engines or PostgreSQL could choke on is a 400 here, never a 500:
invalid UTF-8, deep nesting (RecursionError), NaN and Infinity, NUL characters and lone
surrogates (PostgreSQL stores neither in a JSON column).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from ninja.parser import Parser

from api import conf


class BadBody(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _refuse_constant(name: str) -> float:
    raise BadBody(f"{name} is not a number this API accepts.")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadBody("Numbers must be finite.")
    return value


def _has_bad_text(value: Any) -> bool:
    """NUL or a lone surrogate anywhere in the strings of a parsed document (iteratively: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def parse_json(raw: bytes) -> Any:
    """The body as JSON, or BadBody with a message for the client."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody("The body is not valid UTF-8.") from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise BadBody("The body is nested too deeply.") from None
    except BadBody:
        raise
    except ValueError as error:
        raise BadBody(f"The body is not valid JSON: {error}") from None
    if _has_bad_text(data):
        raise BadBody("The body holds a NUL character or a lone surrogate.")
    return data


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


def guard_body(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap an API view: a body over the size limit is refused before anything reads it."""

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
