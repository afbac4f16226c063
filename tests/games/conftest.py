"""Fixtures of the games' page tests."""

from __future__ import annotations

import pytest

LOCALE_MIDDLEWARE = "django.middleware.locale.LocaleMiddleware"


@pytest.fixture
def locale_middleware(settings):
    """Accept-Language is read by LocaleMiddleware; make sure it runs, whatever the settings hold now."""
    if LOCALE_MIDDLEWARE not in settings.MIDDLEWARE:
        middleware = list(settings.MIDDLEWARE)
        middleware.insert(
            middleware.index("django.contrib.sessions.middleware.SessionMiddleware") + 1, LOCALE_MIDDLEWARE
        )
        settings.MIDDLEWARE = middleware
