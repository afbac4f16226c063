"""Accounts through django-allauth: sign up, verify by email (never on GET), log in, settings."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def run_on_commit(monkeypatch):
    """allauth's emails go out through the worker after the commit; in these tests (one
    transaction) run the on-commit callbacks at once, as a real commit would."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())


def sign_up(client, username="newbie", email="newbie@example.com"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": "a-Long-pass-2026", "password2": "a-Long-pass-2026"},
    )


def confirmation_link(message) -> str:
    return re.search(r"http://[^\s]+/accounts/confirm-email/[^\s]+/", message.body).group(0)


def test_sign_up_sends_a_verification_link_that_does_not_act_on_get(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newbie@example.com"]
    link = confirmation_link(mail.outbox[0])
    path = link.split("testserver", 1)[-1] if "testserver" in link else "/" + link.split("/", 3)[3]
    page = client.get(path)
    assert page.status_code == 200 and "<form" in page.content.decode()
    assert not EmailAddress.objects.get(email="newbie@example.com").verified  # a mail scanner's GET changes nothing
    client.post(path)
    assert EmailAddress.objects.get(email="newbie@example.com").verified


def test_unverified_player_is_told_to_verify_before_playing(client):
    sign_up(client)
    response = client.post(
        "/matches/new/",
        {
            "game": "solitaire-chess",
            "players": "2",
            "seat_1": "bot:random",
            "option_ruleset": "death",
            "option_advantage": "random",
            "time_preset": "daily",
        },
    )
    assert response.status_code == 400 and "verify your email" in response.content.decode()


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_log_in_with_username_or_email(alice, client, login):
    response = client.post("/accounts/login/", {"login": login, "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get("/").wsgi_request.user.username == "alice"


def test_log_out_needs_post(alice, client_for):
    c = client_for(alice)
    c.get("/accounts/logout/")
    assert c.get("/").wsgi_request.user.is_authenticated
    c.post("/accounts/logout/")
    assert not c.get("/").wsgi_request.user.is_authenticated


def test_password_reset_sends_mail(alice, client):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 1 and "/accounts/password/reset/key/" in mail.outbox[0].body


def test_change_email_page(alice, client_for):
    page = client_for(alice).get("/accounts/email/")
    assert page.status_code == 200 and "alice@example.com" in page.content.decode()


def test_settings_page_saves_display_name_and_time_zone(alice, client_for, client):
    c = client_for(alice)
    response = c.post("/settings/", {"display_name": "Ali", "time_zone": "Europe/Paris"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Ali" and alice.time_zone == "Europe/Paris"
    bad = c.post("/settings/", {"display_name": "Ali", "time_zone": "Mars/Olympus"})
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Paris"
    assert client.get("/settings/").status_code == 302  # anonymous: to the login page


def test_the_sign_up_email_names_the_site_in_english_and_dutch(client, settings):
    settings.SITE_URL = "http://127.0.0.1:8031"
    sign_up(client)
    (message,) = mail.outbox
    assert message.subject.startswith("[Dizzysite] ")
    assert "Hello from Dizzysite!" in message.body and "Thank you for using Dizzysite!" in message.body
    assert "127.0.0.1:8031" in message.body and "from !" not in message.body and "on ." not in message.body
    mail.outbox.clear()
    sign_up(Client(HTTP_ACCEPT_LANGUAGE="nl"), username="nieuw", email="nieuw@example.com")
    (dutch,) = mail.outbox
    assert dutch.subject.startswith("[Dizzysite] ") and "Dizzysite" in dutch.body and "from !" not in dutch.body


def test_changing_email_verifies_the_new_address_and_tells_the_old_one(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/email/", {"action_add": "", "email": "alice-new@example.com"})
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["alice-new@example.com"]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # not changed until the new address is verified
    link = confirmation_link(mail.outbox[-1])
    path = "/" + link.split("/", 3)[3]
    client.post(path)
    alice.refresh_from_db()
    assert alice.email == "alice-new@example.com"
    told = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert len(told) == 1 and "alice-new@example.com" in told[0].body
