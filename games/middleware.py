"""Caches between the site and the reader must not keep one person's page for another."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import has_vary_header, patch_cache_control


def private_cache_middleware(get_response: Callable[[HttpRequest], HttpResponse]):
    """`Cache-Control: private` on every response that depends on who asks: one that varies on the
    cookie (a session: a logged-in page, a CSRF token) or answers a token (the API). `Vary: Cookie`
    alone lets a shared cache keep a page per cookie value; `private` keeps it out of shared caches.

    Listed before SessionMiddleware, so it sees the `Vary: Cookie` that one adds."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if has_vary_header(response, "Cookie") or "Authorization" in request.headers:
            patch_cache_control(response, private=True)
        return response

    return middleware
