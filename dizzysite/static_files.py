"""WhiteNoise's static files, handed to Django's ASGI handler as it wants them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, whose file responses iterate synchronously. Django's ASGI handler reads such a
    response in a thread anyway, but warns once a process ("StreamingHttpResponse must consume
    synchronous iterators"): the first static file of every start of `make run` printed it. Under
    ASGI the same read is handed over as an async iterator; under WSGI nothing changes."""

    def serve(self, static_file, request: HttpRequest) -> HttpResponse:  # WhiteNoise's is a staticmethod
        response = super().serve(static_file, request)
        if isinstance(request, ASGIRequest) and response.streaming and not response.is_async:
            response.streaming_content = read_in_thread(response.streaming_content)
        return response


async def read_in_thread(chunks: Iterable[bytes]) -> AsyncIterator[bytes]:
    """What Django's handler does with a synchronous response: read it all in the sync thread."""
    for chunk in await sync_to_async(list)(chunks):
        yield chunk
