"""games.events: listeners during the transaction run at once; the others only once it commits."""

import pytest
from django.db import transaction

from games import events


@pytest.mark.django_db(transaction=True)
def test_during_listeners_run_at_once_and_after_commit_ones_only_on_commit(monkeypatch):
    monkeypatch.setattr(events, "_listeners", events._Listeners())  # the apps' own listeners would read the match
    heard: list[tuple[str, int]] = []

    def during(event):
        heard.append(("during", event.version))

    def after(event):
        heard.append(("after", event.version))

    events.subscribe(events.MatchFinished, during, during=True)
    events.subscribe(events.MatchFinished, after)
    events.subscribe(events.MatchFinished, after)  # twice: still one listener
    try:
        with transaction.atomic():
            events.publish(events.MatchFinished(match=None, version=7))
            assert heard == [("during", 7)]
        assert heard == [("during", 7), ("after", 7)]

        with pytest.raises(RuntimeError), transaction.atomic():
            events.publish(events.MatchFinished(match=None, version=8))
            raise RuntimeError("rolled back")
        assert heard == [("during", 7), ("after", 7), ("during", 8)]
    finally:
        events._listeners.during[events.MatchFinished].remove(during)
        events._listeners.after_commit[events.MatchFinished].remove(after)
