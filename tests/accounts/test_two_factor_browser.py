"""Two-factor sign-in in a real browser: a member turns on an authenticator app's codes from the secret
the page shows, signs out, and signs in again with the password and then a code. The test is the app:
it computes the codes itself (RFC 6238: HMAC-SHA1 over 30-second steps, six digits).
Marker `browser`: Debian's chromium driven by Playwright."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

import pytest
from allauth.mfa.models import Authenticator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP = 30


def totp(secret: str, step: int) -> str:
    """The six-digit code of an authenticator app for the given 30-second step."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def test_the_code_function_gives_the_rfc_6238_codes():
    secret = base64.b32encode(b"12345678901234567890").decode()  # RFC 6238's SHA-1 test key
    assert totp(secret, 59 // STEP) == "287082"
    assert totp(secret, 1111111109 // STEP) == "081804"


def test_a_member_turns_on_codes_then_signs_in_with_one(browser, live_server, alice):
    page = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB").new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", "pw-alice")
    with page.expect_navigation():
        page.click('form[action="/accounts/login/"] button[type=submit]')

    page.goto(live_server.url + "/accounts/2fa/totp/activate/")
    if "/accounts/reauthenticate/" in page.url:  # a change of sign-in asks for the password again
        page.fill("input[name=password]", "pw-alice")
        with page.expect_navigation():
            page.click('form[action^="/accounts/reauthenticate/"] button[type=submit]')
    assert page.url.endswith("/accounts/2fa/totp/activate/")
    secret = page.input_value("#authenticator_secret")
    assert len(secret) >= 16
    used_step = int(time.time()) // STEP
    page.fill("input[name=code]", totp(secret, used_step))
    with page.expect_navigation():
        page.click('form[action="/accounts/2fa/totp/activate/"] button[type=submit]')
    assert Authenticator.objects.filter(user=alice, type=Authenticator.Type.TOTP).exists()

    with page.expect_navigation():
        page.click("header form[action='/accounts/logout/'] button")
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", "pw-alice")
    with page.expect_navigation():
        page.click('form[action="/accounts/login/"] button[type=submit]')
    assert page.url.endswith("/accounts/2fa/authenticate/")
    assert page.locator("header a[href='/accounts/login/']").count() == 1  # the password alone does not sign in
    # A code is good once: the one that turned the app on waits for the next step, as an app would.
    while int(time.time()) // STEP == used_step:
        time.sleep(0.5)
    page.fill("input[name=code]", totp(secret, int(time.time()) // STEP))
    with page.expect_navigation():
        page.click('form[action="/accounts/2fa/authenticate/"] button[type=submit]')
    page.goto(live_server.url + "/settings/")
    assert page.url.endswith("/settings/"), page.url
    assert page.locator("header a[href='/settings/']").inner_text() == "alice"
    page.context.close()
