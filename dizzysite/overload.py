"""A site too busy to answer says so: 503 with Retry-After, never a 500.

When the database refuses a connection (too many clients, a pool or a timeout run out) or Redis is
out of reach, the request's transaction has been rolled back by the error itself, so nothing was
half done: the answer tells the browser or the API client to try again in a moment. Other errors
stay 500s, as they are bugs.
"""

from __future__ import annotations

import logging

import redis
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)
RETRY_AFTER_S = 2
BUSY_ERRORS = (OperationalError, InterfaceError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class OverloadMiddleware(MiddlewareMixin):
    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, BUSY_ERRORS):
            return None
        log.warning("busy: %s %s answered 503 (%s)", request.method, request.path, exception)
        response = HttpResponse(
            _("The site is very busy: nothing was changed. Try again in a moment."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
