"""Bearer-token authentication and the per-token rate limit (a fixed window in Django's cache)."""

from __future__ import annotations

import threading
import time

from django.core.cache import cache
from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from api import conf
from api.models import BOT, PLAY, READ, ApiToken


class TokenAuth(HttpBearer):
    """`Authorization: Bearer dzy_…`: the user of a live token; request.api_token is the token.

    Each endpoint needs a scope of the token: `scope`, or when none is given "read" for a
    GET and "play" for anything else. "play" is "bot" for a bot account. A token without it is a 403
    before the request's body is read; ANY lets every live token in (revoking itself)."""

    ANY = "any"

    def __init__(self, scope: str | None = None) -> None:
        super().__init__()
        self.scope = scope

    def needed(self, request: HttpRequest, user) -> str:
        scope = self.scope or (READ if request.method in ("GET", "HEAD") else PLAY)
        return BOT if scope == PLAY and user.is_bot else scope

    def authenticate(self, request: HttpRequest, token: str):
        found = ApiToken.find(token.strip())
        if found is None:
            return None
        found.touch()
        request.api_token = found  # type: ignore[attr-defined]
        scope = self.needed(request, found.user)
        if scope != self.ANY and not found.allows(scope):
            raise HttpError(403, f"This token lacks the scope {scope!r}: make one that has it at /settings/api/.")
        return found.user


class TokenRateLimit(BaseThrottle):
    """At most DIZZY_API_RATE_LIMIT requests per token in each window of DIZZY_API_RATE_WINDOW seconds.

    A fixed window is coarse (a burst may straddle two windows) but costs one cache increment a
    request and needs no history; wait() tells the client when the window ends (Retry-After)."""

    def __init__(self) -> None:
        self.local = threading.local()  # one instance serves every request thread

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "api_token", None)
        if token is None:  # unauthenticated requests never get this far
            return True
        limit, window = conf.get("DIZZY_API_RATE_LIMIT"), conf.get("DIZZY_API_RATE_WINDOW")
        now = time.time()
        start = int(now // window) * window
        key = f"api-rate:{token.pk}:{start}"
        cache.add(key, 0, timeout=window + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # the key expired between add and incr: a new window
            cache.set(key, 1, timeout=window + 1)
            count = 1
        if count <= limit:
            return True
        self.local.retry_after = max(1.0, start + window - now)
        return False

    def wait(self) -> float | None:
        return getattr(self.local, "retry_after", None)


def scoped(scope: str) -> dict:
    """An endpoint's decorator arguments for a scope other than its method's default: the check, and
    the scope in the schema (`x-scope`) for the documentation page."""
    return {"auth": TokenAuth(scope), "openapi_extra": {"x-scope": scope}}
