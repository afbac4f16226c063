"""Accounts a player can trust: two-factor sign-in (an authenticator app's codes, recovery codes),
the list of one's sessions with "sign out everywhere else", sign-in limits that answer a scripted
brute force with a clear refusal, a password reset that does not tell whether an account exists,
and the privacy page."""

from __future__ import annotations

import re

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import SECRET_SESSION_KEY, format_hotp_value, hotp_value
from allauth.usersessions.models import UserSession
from django.test import Client

pytestmark = pytest.mark.django_db


def current_code(secret: str) -> str:
    import time

    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def signed_in(user) -> Client:
    """Signed in through the login form (allauth records the sign-in, as two-factor changes need)."""
    client = Client()
    response = client.post("/accounts/login/", {"login": user.username, "password": f"pw-{user.username}"})
    assert response.status_code == 302
    return client


def test_totp_set_up_then_signing_in_asks_for_a_code(alice):
    client = signed_in(alice)
    assert "Two-factor sign-in" in client.get("/settings/").content.decode()
    asked = client.get("/accounts/2fa/totp/activate/")  # a change of sign-in asks for the password again
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/reauthenticate/")
    assert client.post(asked["Location"], {"password": "pw-alice"}).status_code == 302
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    secret = client.session[SECRET_SESSION_KEY]
    assert client.post("/accounts/2fa/totp/activate/", {"code": "000000"}).status_code == 200  # wrong: refused
    assert not Authenticator.objects.filter(user=alice, type=Authenticator.Type.TOTP).exists()
    assert client.post("/accounts/2fa/totp/activate/", {"code": current_code(secret)}).status_code == 302
    assert Authenticator.objects.filter(user=alice, type=Authenticator.Type.TOTP).exists()
    assert Authenticator.objects.filter(user=alice, type=Authenticator.Type.RECOVERY_CODES).exists()

    fresh = Client()
    step = fresh.post("/accounts/login/", {"login": "alice", "password": "pw-alice"})
    assert step.status_code == 302 and step["Location"] == "/accounts/2fa/authenticate/"
    assert fresh.get("/settings/").status_code == 302  # not signed in with the password alone
    assert fresh.post("/accounts/2fa/authenticate/", {"code": "123456"}).status_code == 200  # wrong code
    done = fresh.post("/accounts/2fa/authenticate/", {"code": current_code(secret)})
    assert done.status_code == 302 and fresh.get("/settings/").status_code == 200


def test_the_sessions_page_lists_them_and_signs_out_everywhere_else(alice):
    here, elsewhere = signed_in(alice), signed_in(alice)
    assert UserSession.objects.filter(user=alice).count() == 2
    page = here.get("/accounts/sessions/")
    assert page.status_code == 200
    assert here.post("/accounts/sessions/", {}).status_code == 302  # "sign out everywhere else"
    assert UserSession.objects.filter(user=alice).count() == 1
    assert here.get("/settings/").status_code == 200
    assert elsewhere.get("/settings/").status_code == 302  # that one is signed out


def test_a_scripted_brute_force_from_one_address_is_refused_clearly(alice, settings):
    from django.core.cache import cache

    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
    cache.clear()
    client = Client()
    answers = [client.post("/accounts/login/", {"login": "alice", "password": f"guess-{n}"}) for n in range(8)]
    assert all(answer.status_code in (200, 429) for answer in answers)
    refused = answers[-1].content.decode()
    assert "Too many failed login attempts" in refused
    right = client.post("/accounts/login/", {"login": "alice", "password": "pw-alice"})
    assert right.status_code != 302  # even the right password waits out the limit


def test_the_password_reset_does_not_tell_whether_an_account_exists(alice):
    client = Client()
    known = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    page_known = client.get(known["Location"]).content.decode()
    page_unknown = client.get(unknown["Location"]).content.decode()
    scrub = lambda html: re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', "", html)  # noqa: E731
    assert scrub(page_known) == scrub(page_unknown)


@pytest.mark.parametrize(("language", "title"), [("en", "Your data and privacy"), ("nl", "Jouw gegevens en privacy")])
def test_the_privacy_page_is_for_everyone_and_linked_from_every_page(language, title):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get("/privacy/").content.decode()
    assert f"<h1>{title}</h1>" in page and ("GDPR" in page or "AVG" in page)
    for path in ("/", "/accounts/signup/", "/games/"):
        assert 'href="/privacy/"' in client.get(path).content.decode(), path


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", 'What we keep about you, and why, is on the <a href="/privacy/">privacy page</a>.'),
        ("nl", 'Wat we over je bewaren, en waarom, lees je op de <a href="/privacy/">privacypagina</a>.'),
    ],
)
def test_the_sign_up_form_links_the_privacy_page(language, sentence):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/accounts/signup/")
    assert page.status_code == 200
    main = page.content.decode().partition('<main id="main"')[2].partition("</main>")[0]
    form_end = main.index("</form>")
    assert sentence in main and main.index(sentence) > form_end  # under the form, not only in the footer
    assert 'name="password1"' in main and 'action="/accounts/signup/"' in main
