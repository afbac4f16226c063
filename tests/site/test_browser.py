"""Two new users sign up, verify their email from the sent mail, and play a whole Solitaire Chess
match to its result through the pages, in Debian's chromium driven by Playwright."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.browser_helpers import keep_screenshots, take_one_action

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_up_and_verify(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", "a-Long-pass-2026")
    page.fill("input[name=password2]", "a-Long-pass-2026")
    page.click("form button[type=submit]")
    message = next(m for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)
    page.goto(base + "/" + link.split("/", 3)[3])
    page.click("form button[type=submit]")  # confirming takes a click: a GET changes nothing
    page.wait_for_load_state()


def test_two_new_users_play_a_whole_match(browser, live_server):
    base = live_server.url
    ann = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone
    ben = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pages = {"ann": ann, "ben": ben}
    try:
        sign_up_and_verify(ann, base, "ann")
        sign_up_and_verify(ben, base, "ben")

        ann.goto(f"{base}/matches/new/")
        ann.click("text=Solitaire Chess")
        ann.select_option("select[name=seat_1]", "invite")
        ann.fill("input[name=invite_1]", "ben")
        ann.select_option("select[name=option_ruleset]", "final")
        ann.click("text=Create the match")
        match_url = ann.url
        assert "Waiting for players" in ann.content()

        ben.goto(f"{base}/")
        ben.click(f"a[href='{match_url.removeprefix(base)}']")
        ben.click("text=Accept the invitation")
        assert "In play" in ben.content()

        for _ in range(400):
            ann.goto(match_url)
            if "Finished" in ann.locator(".status").inner_text():
                break
            mover = ann if ann.locator(".turn-banner.mine").count() else ben
            if mover is ben:
                ben.goto(match_url)
            assert mover.locator(".turn-banner.mine").count() == 1
            version = mover.locator("input[name=version]").input_value()
            assert take_one_action(mover), "it is this player's turn but no move is offered"
            # The move goes by HTMX: wait for the fresh board (a new version) or an error.
            mover.wait_for_function(
                "v => document.querySelector('p.error') || document.querySelector('input[name=version]').value != v",
                arg=version,
            )
            assert mover.locator("p.error").count() == 0, mover.locator("p.error").inner_text()
        ann.goto(match_url)
        ben.goto(match_url)
        for page in (ann, ben):
            assert "Finished" in page.locator(".status").inner_text()
            assert page.locator(".badge.win").count() >= 1
            assert page.locator(".history li").count() > 10
        # The dashboard's rows: a date on the server, said as "... ago" in the browser (static/js/site.js).
        ben.goto(f"{base}/")
        started = ben.locator("time.ago").first
        assert re.fullmatch(r"(\d+ (seconds?|minutes?) ago|now)", started.inner_text())
        assert re.fullmatch(r"\d{1,2} \w{3} \d{4}", started.get_attribute("title"))
        keep_screenshots(pages, "finished")
    except Exception:
        keep_screenshots(pages, "failure")
        raise
