"""A new account's time zone comes from the browser: the sign-up form's hidden field, filled by
static/js/time_zone.js, checked against the zones the profile offers (an unknown one gives the
default, never an error)."""

from __future__ import annotations

import re

import pytest

from accounts.forms import SignupForm
from accounts.models import DEFAULT_TIME_ZONE, User

pytestmark = pytest.mark.django_db

FIELDS = {"username": "newbie", "email": "newbie@example.com", "password1": "a-Long-pass-2026"}


def sign_up(client, **extra):
    return client.post("/accounts/signup/", {**FIELDS, "password2": FIELDS["password1"], **extra})


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Asia/Tokyo", "Asia/Tokyo"),
        ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("Mars/Olympus_Mons", DEFAULT_TIME_ZONE),
        ("x" * 500, DEFAULT_TIME_ZONE),
        ("", DEFAULT_TIME_ZONE),
    ],
)
def test_the_signup_form_keeps_a_known_zone_and_gives_the_default_for_any_other(sent, kept):
    form = SignupForm(data={**FIELDS, "password2": FIELDS["password1"], "time_zone": sent})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["time_zone"] == kept


def test_a_new_account_takes_the_zone_its_browser_sent(client):
    assert sign_up(client, time_zone="Asia/Tokyo").status_code == 302
    assert User.objects.get(username="newbie").time_zone == "Asia/Tokyo"


@pytest.mark.parametrize("extra", [{}, {"time_zone": "Nowhere/Else"}])
def test_a_sign_up_without_a_known_zone_gets_the_default(client, extra):
    assert sign_up(client, **extra).status_code == 302
    assert User.objects.get(username="newbie").time_zone == DEFAULT_TIME_ZONE


def test_the_signup_page_has_the_hidden_field_and_its_script(client):
    page = client.get("/accounts/signup/").content.decode()
    assert page.lstrip().startswith("<!doctype html>")  # a template comment of two lines showed as text
    assert 'type="hidden" name="time_zone"' in page and "data-browser-time-zone" in page
    assert "/static/js/time_zone.js" in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_browser_in_tokyo_signs_up_into_tokyos_zone(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", timezone_id="Asia/Tokyo")
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live_server.url + "/accounts/signup/")
    assert page.input_value("input[name=time_zone]") == "Asia/Tokyo"
    # The site's form: each field the column's width on a phone, in the page's type size.
    width = page.evaluate("document.querySelector('input[name=username]').getBoundingClientRect().width")
    assert (
        width >= 360
        and page.evaluate("getComputedStyle(document.querySelector('input[name=email]')).fontSize") == "16px"
    )
    page.fill("input[name=username]", FIELDS["username"])
    page.fill("input[name=email]", FIELDS["email"])
    page.fill("input[name=password1]", FIELDS["password1"])
    page.fill("input[name=password2]", FIELDS["password1"])
    with page.expect_navigation():
        page.click('form[action="/accounts/signup/"] button[type=submit]')
    context.close()
    assert User.objects.get(username="newbie").time_zone == "Asia/Tokyo"
    assert not errors


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/login/"])
def test_the_entrance_forms_are_the_sites_forms_with_a_primary_button(client, path):
    """allauth's forms came unstyled: small fields beside their labels, a plain button."""
    page = client.get(path).content.decode()
    form = page[page.index(f'action="{path}"') :].split("</form>", 1)[0]
    assert 'class="form entrance-form"' in form
    assert re.search(r'type="submit"\s+class="primary"', form), form
