"""Helpers for the browser tests (marker `browser`: Debian's chromium driven by Playwright). Not a test
module: the `browser` fixture itself is in tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

from django.test import Client

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"  # screenshots, kept by CI
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def page_as(browser, live_server, user, width: int = 1200, locale: str | None = None):
    """A page of a fresh browser context signed in as `user` (the session cookie of a test client),
    asking for `locale`'s language when given."""
    client = Client()
    client.force_login(user)
    extra = {"locale": locale} if locale else {}
    context = browser.new_context(viewport={"width": width, "height": 900}, **extra)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context.new_page()


def dutch_page(browser, live_server, user):
    """A signed-in browser whose Accept-Language asks for Dutch (the account has no setting)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="nl-NL", viewport={"width": 1200, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return context.new_page()


def serious_violations(page) -> list[str]:
    """axe-core's critical and serious violations on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]


def keep_screenshots(pages: dict, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for who, page in pages.items():
        page.screenshot(path=str(ARTIFACTS / f"{name}-{who}.png"), full_page=True)


def take_one_action(page) -> bool:
    """Make one legal move on a page where it is this player's turn. False if there is none."""
    if page.locator(".choice button").count():
        page.locator(".choice button").first.click()
        return True
    if page.locator(".target-button").count():
        page.locator(".target-button").first.click()
        return True
    pieces = page.locator(".piece-link")
    if pieces.count():
        pieces.first.click()
        page.wait_for_selector(".target-button, .panel button[name=move]")
        page.locator(".target-button, .panel button[name=move]").first.click()
        return True
    return False
