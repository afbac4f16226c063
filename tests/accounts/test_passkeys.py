"""Passkeys (WebAuthn, allauth.mfa): a member adds one from the two-factor page and signs in with it
from the login page. The pages keep the site's strict Content Security Policy: every script comes from a
static file, and the data the scripts read is JSON in a `<script type="application/json">` block, which
a browser does not run."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.I)


def inline_scripts(html: str) -> list[str]:
    """The `<script>` tags a browser would run from the page itself: neither a `src` nor JSON data."""
    return [
        tag
        for tag in SCRIPT_TAG.findall(html)
        if not re.search(r"\bsrc=", tag) and not re.search(r'\btype="application/json"', tag)
    ]


def signed_in_for_changes(user) -> Client:
    """Signed in by the form, with the password given again, as a change of sign-in asks."""
    client, password = Client(), f"pw-{user.username}"
    assert client.post("/accounts/login/", {"login": user.username, "password": password}).status_code == 302
    asked = client.get("/accounts/2fa/webauthn/add/")
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/reauthenticate/")
    assert client.post(asked["Location"], {"password": password}).status_code == 302
    return client


def test_the_inline_script_check_sees_an_inline_script():
    assert inline_scripts('<script>alert(1)</script><script type="module">x</script>') == [
        "<script>",
        '<script type="module">',
    ]
    harmless = '<script src="/static/a.js"></script><script id="d" type="application/json">{}</script>'
    assert inline_scripts(harmless) == []


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_login_page_offers_a_passkey_with_no_inline_script(language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/accounts/login/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="passkey_login"' in html and 'action="/accounts/2fa/webauthn/login/"' in html
    assert 'src="/static/mfa/js/webauthn.js"' in html
    assert 'data-allauth-onload="allauth.webauthn.forms.loginForm"' in html
    assert inline_scripts(html) == []


@pytest.mark.parametrize(("language", "label"), [("en", "Name"), ("nl", "Naam")])
def test_the_passkey_add_page_renders_with_no_inline_script(alice, language, label):
    client = signed_in_for_changes(alice)
    page = client.get("/accounts/2fa/webauthn/add/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<label for="id_name">{label}:</label>' in html
    assert 'id="mfa_webauthn_add"' in html and 'id="js_data" type="application/json"' in html
    assert '"creation_options"' in html
    assert inline_scripts(html) == []


def test_the_two_factor_page_offers_passkeys(alice):
    client = signed_in_for_changes(alice)
    page = client.get("/accounts/2fa/")
    assert page.status_code == 200 and 'href="/accounts/2fa/webauthn/add/"' in page.content.decode()
    assert inline_scripts(page.content.decode()) == []


def test_the_passkey_sign_in_gives_its_challenge_as_json():
    answer = Client().get("/accounts/2fa/webauthn/login/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and "challenge" in answer.json()["request_options"]["publicKey"]


def test_the_csp_header_still_allows_only_our_own_scripts():
    policy = Client().get("/accounts/login/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
