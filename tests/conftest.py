"""Shared fixtures: users with verified emails, logged-in clients, and real-service checks."""

from __future__ import annotations

import os
import shutil

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def require(condition: bool, reason: str) -> None:
    """Skip with a clear reason when a real part is missing; under CI=true, fail instead."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache (presence marks, rate limits): ids may repeat between tests."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def english_between_tests():
    """A request activates its reader's language in the test's thread and leaves it there: each test
    starts and ends in the site's default, so a Dutch page in one test does not make the next Dutch."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def make_user(db, django_user_model):
    from allauth.account.models import EmailAddress

    def make(username: str, verified: bool = True, **fields):
        user = django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password="pw-" + username, **fields
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    """An outsider: a verified user with no seat."""
    return make_user("carol")


@pytest.fixture
def client_for(client):
    from django.test import Client

    def make(user):
        c = Client()
        c.force_login(user)
        return c

    return make


@pytest.fixture
def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    require(path is not None, "Debian's chromium is not installed (apt-get install chromium)")
    return path


@pytest.fixture
def browser(chromium_path, monkeypatch):
    """Debian's chromium driven by Playwright, for the tests marked `browser`."""
    # Playwright's sync API runs an event loop in this thread; Django's ORM in the test is still sync.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    from tests.browser_helpers import CHROMIUM_ARGS

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
