"""Passkeys in a real browser: the pages run allauth's scripts under the site's Content Security Policy
with no console error, and a member adds a passkey and signs in with it. Chromium's virtual
authenticator (the DevTools protocol's WebAuthn domain) stands in for a phone or a security key.
Marker `browser`: Debian's chromium driven by Playwright."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Recorded before any of the page's own scripts run; the browser's init scripts are not under the CSP.
WATCH_CSP = "window.cspViolations = []; document.addEventListener('securitypolicyviolation', "
WATCH_CSP += "(e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"


def watched_page(browser, live_server):
    """A page that records console errors and CSP violations, with a virtual passkey authenticator."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    devtools = context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    authenticator = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]
    page.devtools, page.authenticator = devtools, authenticator
    return page


def troubles(page) -> list[str]:
    return page.errors + page.evaluate("window.cspViolations")


def sign_in_by_form(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", f"pw-{username}")
    with page.expect_navigation():
        page.click('form[action="/accounts/login/"] button[type=submit]')


def test_the_login_page_runs_its_passkey_script_with_no_error(browser, live_server):
    page = watched_page(browser, live_server)
    page.goto(live_server.url + "/accounts/login/")
    assert page.locator("#passkey_login").is_visible()
    page.wait_for_load_state("load")
    assert page.evaluate("typeof window.allauth.webauthn.forms.loginForm") == "function"
    assert troubles(page) == []
    page.context.close()


def test_a_member_adds_a_passkey_then_signs_in_with_it(browser, live_server, alice):
    page = watched_page(browser, live_server)
    sign_in_by_form(page, live_server, "alice")
    page.goto(live_server.url + "/accounts/2fa/webauthn/add/")
    if "/accounts/reauthenticate/" in page.url:  # a change of sign-in asks for the password again
        page.fill("input[name=password]", "pw-alice")
        with page.expect_navigation():
            page.click('form[action^="/accounts/reauthenticate/"] button[type=submit]')
    assert page.url.endswith("/accounts/2fa/webauthn/add/")
    assert troubles(page) == []
    page.fill("input[name=name]", "My phone")
    page.check("input[name=passwordless]")
    with page.expect_navigation():
        page.click("#mfa_webauthn_add")
    assert troubles(page) == [], page.url
    passkey = Authenticator.objects.get(user=alice, type=Authenticator.Type.WEBAUTHN)
    assert passkey.wrap().name == "My phone" and passkey.wrap().is_passwordless
    stored = page.devtools.send("WebAuthn.getCredentials", {"authenticatorId": page.authenticator})["credentials"]
    assert len(stored) == 1 and stored[0]["isResidentCredential"]

    with page.expect_navigation():
        page.click("header form[action='/accounts/logout/'] button")
    page.goto(live_server.url + "/settings/")
    assert "/accounts/login/" in page.url  # signed out
    page.goto(live_server.url + "/accounts/login/")
    with page.expect_navigation():
        page.click("#passkey_login")  # no username, no password: the passkey says who it is
    assert "/accounts/login/" not in page.url and page.locator("header a[href='/settings/']").inner_text() == "alice"
    page.goto(live_server.url + "/settings/")
    assert page.url.endswith("/settings/"), page.url  # signed in: not sent to the login page
    assert troubles(page) == []
    page.context.close()
