"""The account pages added for trust (privacy, two-factor sign-in, sessions) are axe-clean and fit a
phone, in English and Dutch. Marker `browser`: Debian's chromium driven by Playwright."""

from __future__ import annotations

import pytest

from tests.browser_helpers import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_the_privacy_two_factor_and_sessions_pages_are_axe_clean_at_both_widths(browser, live_server, alice, locale):
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        page = context.new_page()
        page.goto(live_server.url + "/accounts/login/")  # signed in by the form: the session is listed
        page.fill("input[name=login]", "alice")
        page.fill("input[name=password]", "pw-alice")
        with page.expect_navigation():
            page.click("button[type=submit]")
        for path in ("/privacy/", "/accounts/2fa/", "/accounts/sessions/", "/settings/", "/settings/close/"):
            page.goto(live_server.url + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (path, width)
            assert serious_violations(page) == [], (path, width, locale)
        page.context.close()
