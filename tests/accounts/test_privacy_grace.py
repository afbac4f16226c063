"""The privacy page tells, in English and in Dutch, how a copy of one's data is had and that a
closed account's personal data is erased after a grace period of 30 days."""

from __future__ import annotations

import pytest

from accounts.actions import ERASE_AFTER_DAYS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", f"grace period of {ERASE_AFTER_DAYS} days"), ("nl", f"bedenktijd van {ERASE_AFTER_DAYS} dagen")],
)
def test_the_privacy_page_tells_the_grace_period_in_both_languages(client, language, words):
    page = client.get("/privacy/", headers={"accept-language": language}).content.decode()
    assert words in " ".join(page.split())
