"""Static files under ASGI: served by WhiteNoise through dizzysite.static_files, with no warning from
Django's ASGI handler (`make run` printed one at each start's first static file)."""

from __future__ import annotations

import asyncio
import warnings

from django.conf import settings
from django.http import HttpResponse
from django.test import AsyncRequestFactory, RequestFactory, override_settings

from dizzysite.static_files import StaticFilesMiddleware

CSS = settings.BASE_DIR / "static" / "css" / "site.css"


def middleware() -> StaticFilesMiddleware:
    with override_settings(DEBUG=True):  # WhiteNoise finds the files as `make run` does
        return StaticFilesMiddleware(lambda request: HttpResponse("not a static file"))


async def body_of(response) -> bytes:
    return b"".join([part async for part in response])


def test_a_static_file_under_asgi_is_an_async_stream_read_without_a_warning():
    response = middleware()(AsyncRequestFactory().get("/static/css/site.css"))
    assert response.status_code == 200 and response.is_async
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "StreamingHttpResponse must consume synchronous iterators"
        assert asyncio.run(body_of(response)) == CSS.read_bytes()


def test_a_static_file_under_wsgi_is_served_as_before():
    response = middleware()(RequestFactory().get("/static/css/site.css"))
    assert response.status_code == 200 and not response.is_async
    assert b"".join(response.streaming_content) == CSS.read_bytes()
