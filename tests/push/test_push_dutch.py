"""Device names and the manifest's description speak Dutch."""

from __future__ import annotations

import json

import pytest

from push.models import PushSubscription

pytestmark = pytest.mark.django_db

SAFARI_IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


def test_device_names_in_the_settings_speak_the_readers_language(bob, client_for):
    bob.language = "nl"
    bob.save()
    PushSubscription.objects.create(
        user=bob, endpoint="https://web.push.apple.com/a", p256dh="x", auth="y", label="Safari on iPhone"
    )
    PushSubscription.objects.create(
        user=bob, endpoint="https://web.push.apple.com/b", p256dh="x", auth="y", label="A browser"
    )
    page = client_for(bob).get("/settings/").content.decode()
    assert "Safari op iPhone" in page and "Een browser" in page
    assert "Safari on iPhone" not in page and "A browser" not in page


def test_a_device_subscribed_from_a_dutch_page_is_named_in_dutch(bob, client_for, settings):
    from push.devices import device_label

    bob.language = "nl"
    bob.save()
    body = {"endpoint": "https://web.push.apple.com/QGx8", "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}
    answer = client_for(bob).post(
        "/push/subscriptions/", json.dumps(body), content_type="application/json", HTTP_USER_AGENT=SAFARI_IPHONE
    )
    assert answer.status_code == 201 and answer.json()["label"] == "Safari op iPhone"
    assert PushSubscription.objects.get().label == device_label(SAFARI_IPHONE) == "Safari on iPhone"  # kept in English


def test_the_manifest_speaks_the_visitors_language(client):
    english = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en").content)
    dutch_answer = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="nl")
    dutch = json.loads(dutch_answer.content)
    assert english["description"] == "Tabletop games played by turns over days, against friends or bots."
    assert dutch["description"] == "Bordspellen die je beurt voor beurt over dagen speelt, tegen vrienden of bots."
    assert dutch["lang"] == "nl" and "Accept-Language" in dutch_answer["Vary"]
