"""in Chromium: a player turns notifications on from the settings page through the real
service worker registration, the opponent moves, the push reaches the service worker and the bell's
count rises; the new pages pass axe.

Headless Chromium has no push service to subscribe with (PushManager.subscribe() fails there), so the
page's PushManager.subscribe is stubbed (add_init_script) to answer a subscription on the test's own
push service on 127.0.0.1, with keys the test made. Everything else is real: the permission prompt's
answer, /sw.js registered and active, push.js posting the subscription, the worker's task encrypting
and signing the push (run in place: CELERY_TASK_ALWAYS_EAGER), the test's push service decrypting
it, and Chromium's own DevTools hook (ServiceWorker.deliverPushMessage) handing the decrypted push
to the service worker's push handler, which tells the open page to refresh its bell."""

from __future__ import annotations

import json

import pytest

from tests.browser_helpers import keep_screenshots, page_as, serious_violations, take_one_action
from tests.helpers import start_match, user_to_act
from tests.integration.conftest import wait_for
from tests.push_endpoint import PushEndpoint, b64url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STUB = """
PushManager.prototype.subscribe = async function () {
  const sub = %s;
  return { endpoint: sub.endpoint, expirationTime: null, toJSON: () => sub };
};
"""


def waited(page, condition, what: str, seconds: float = 10):
    """Like wait_for, but waiting in Playwright's loop, so its events (the CDP session's) arrive."""
    for _ in range(int(seconds * 5)):
        value = condition()
        if value:
            return value
        page.wait_for_timeout(200)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def bell_count(page) -> int:
    return int(page.locator("#inbox-bell").get_attribute("data-count") or -1)


def play_turn(match) -> None:
    from games import actions
    from games.engines.registry import get_engine

    engine = get_engine(match.game)
    seat = match.seats.get(to_act=True)
    while True:
        actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
        if not match.seats.get(number=seat.number).to_act:
            return


def test_subscribe_through_the_service_worker_and_the_bell_rises(browser, live_server, alice, bob):
    from push.models import PushSubscription

    match = start_match(alice, [bob])
    waiting = match.seats.exclude(to_act=True).get().user
    with PushEndpoint() as endpoint:
        url, keys = endpoint.new_device("phone")
        page = page_as(browser, live_server, waiting, width=390)
        page.context.grant_permissions(["notifications"], origin=live_server.url)
        subscription = {"endpoint": url, "keys": {"p256dh": keys.p256dh, "auth": b64url(keys.auth)}}
        page.context.add_init_script(STUB % json.dumps(subscription))
        try:
            page.goto(f"{live_server.url}/settings/")
            page.get_by_role("button", name="Turn on notifications on this device").click()
            page.wait_for_selector("text=Remove Chrome on Linux")
            device = PushSubscription.objects.get(user=waiting)
            assert device.endpoint == url and "last used never" in page.content()
            worker = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r && r.active.scriptURL)")
            assert worker == f"{live_server.url}/sw.js"
            assert serious_violations(page) == []

            cdp = page.context.new_cdp_session(page)
            registrations = []
            cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
            cdp.send("ServiceWorker.enable")
            waited(page, lambda: registrations, "the service worker's registration")
            page.wait_for_selector("#inbox-bell[data-count]")
            before = bell_count(page)

            play_turn(match)  # the opponent moves: the worker's task pushes to the device
            [push] = wait_for(lambda: endpoint.to(url), 10, what="the push")
            assert push["payload"]["title"] == f"Your turn in Solitaire Chess #{match.pk}"
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": live_server.url,
                    "registrationId": registrations[0]["registrationId"],
                    "data": json.dumps(push["payload"]),
                },
            )
            page.wait_for_function("n => Number(document.getElementById('inbox-bell').dataset.count) > n", arg=before)
            assert bell_count(page) == before + 1
            assert f"Inbox: {before + 1}" in page.locator("#inbox-bell").inner_text()

            page.click("#inbox-bell")
            page.wait_for_selector("h1:has-text('Inbox')")
            assert page.locator(".inbox li.new").count() == before + 1
            assert serious_violations(page) == []
            page.goto(f"{live_server.url}/email/preferences/")
            assert serious_violations(page) == []
        finally:
            keep_screenshots({"bob": page}, "push")


def test_the_site_is_installable_and_offers_notifications_only_after_a_move(
    browser,
    live_server,
    alice,
    bob,
):
    match = start_match(alice, [bob])
    page = page_as(browser, live_server, user_to_act(match).user)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        cdp = page.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        # Chromium's own installability checks (what Lighthouse's installable-manifest audit read).
        # Playwright's contexts are incognito, which Chromium names as an error of its own: not the site's.
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []

        page.wait_for_selector("#inbox-bell[data-count]")
        assert page.locator("#push-prompt").is_hidden()  # never on page load
        board_top = page.locator("#board").bounding_box()["y"]
        version = page.locator("input[name=version]").input_value()
        assert take_one_action(page)
        page.wait_for_function("v => document.querySelector('input[name=version]').value != v", arg=version)
        prompt = page.get_by_role("region", name="Notifications")
        prompt.wait_for()
        # Below the board, outside its fragment: the board did not move down.
        assert page.locator("#board").bounding_box()["y"] == board_top
        assert page.locator("#board #push-prompt").count() == 0
        assert prompt.bounding_box()["y"] > page.locator("#board").bounding_box()["y"]
        # The question is a live region, filled once it is in the page: screen readers announce it.
        question = prompt.get_by_role("status").filter(has_text="when it is your turn again")
        question.wait_for()
        assert question.get_attribute("aria-live") == "polite"
        assert serious_violations(page) == []
        prompt.get_by_role("button", name="Not now").click()
        assert page.locator("#push-prompt").count() == 0
        assert page.evaluate("localStorage.getItem('dizzy-push-asked')") == "no"
    finally:
        keep_screenshots({"player": page}, "push-prompt")


def test_the_notifications_prompt_shows_once_even_unanswered(browser, live_server, alice, bob):
    match = start_match(alice, [bob])
    player = user_to_act(match).user
    page = page_as(browser, live_server, player)
    try:
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#inbox-bell[data-count]")
        version = page.locator("input[name=version]").input_value()
        assert take_one_action(page)
        page.wait_for_function("v => document.querySelector('input[name=version]').value != v", arg=version)
        page.get_by_role("region", name="Notifications").wait_for()

        match.refresh_from_db()
        while not match.seats.get(user=player).to_act:  # the opponent moves; the player leaves the prompt be
            play_turn(match)
            match.refresh_from_db()
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.wait_for_selector("#inbox-bell[data-count]")
        version = page.locator("input[name=version]").input_value()
        assert take_one_action(page)
        page.wait_for_function("v => document.querySelector('input[name=version]').value != v", arg=version)
        page.wait_for_timeout(300)
        assert page.locator("#push-prompt").is_hidden()
    finally:
        page.context.close()
