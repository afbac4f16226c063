"""Django's GZipMiddleware, except for event streams.

Its gzip stream is never flushed between chunks, so an event would wait in the compressor until
kilobytes of later events pushed it out: a stream must reach the browser event by event.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class GZipExceptEventsMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)
