"""The API's documentation page, /api/v1/docs (it scored 79 for accessibility): our own
page drawn from the schema, in the site's frame, and axe-clean in a real browser."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def test_the_docs_page_lists_every_operation_with_its_scope(client):
    page = client.get("/api/v1/docs")
    text = page.content.decode()
    assert page.status_code == 200 and '<html lang="en">' in text and 'name="viewport"' in text
    assert "<script" not in text.split("</head>")[1] and "cdn" not in text.lower()
    schema = Client().get("/api/v1/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f"<code>{method.upper()} {path}</code>" in text, (method, path)
    assert "Token scope: <code>challenge</code>" in text and "Token scope: <code>read</code>" in text
    assert 'id="schema-dizzyduobattleoptions"' in text


def test_the_docs_page_speaks_dutch(client):
    client.cookies["django_language"] = "nl"
    text = client.get("/api/v1/docs", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in text and "Parameters" in text and "Antwoorden:" in text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_docs_page_is_axe_clean(chromium_path, live_server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API in the test's thread
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        found = {}
        for width in (1200, 390):
            page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
            page.goto(f"{live_server.url}/api/v1/docs")
            results = Axe().run(page).response
            found[width] = [
                f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in results["violations"]
            ]
        browser.close()
    assert found == {1200: [], 390: []}
