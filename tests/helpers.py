"""Helpers for platform tests: start matches and play them through the real actions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from django.utils import translation

from games import actions
from games.actions import SeatSpec
from games.engines.registry import get_engine
from games.models import Match


def start_match(creator, others, game="solitaire-chess", options=None) -> Match:
    """A running match: `others` are users (invited, then accepting) or bot levels as strings."""
    seats = [SeatSpec("me")]
    for other in others:
        seats.append(SeatSpec("bot", other) if isinstance(other, str) else SeatSpec("invite", other.username))
    match = actions.create_match(creator, game, seats, options=options or {})
    for other in others:
        if not isinstance(other, str):
            actions.do_join(match.pk, other)
    match.refresh_from_db()
    return match


def first_legal(match: Match, seat: int) -> dict:
    return get_engine(match.game).legal_moves(match.state, seat)[0]


def user_to_act(match: Match):
    match.refresh_from_db()
    return match.seats.filter(to_act=True).select_related("user").first()


def post_move(client, match: Match, move: dict, version: int | None = None, **headers):
    return client.post(
        f"/matches/{match.pk}/move/",
        {"version": match.version if version is None else version, "move": json.dumps(move)},
        **headers,
    )


def make_late(match: Match) -> None:
    """The seat to act has used its turn's time and its reserve: the next sweep applies the consequence."""
    from datetime import timedelta

    from django.utils import timezone

    past = timezone.now() - timedelta(minutes=1)
    match.seats.update(reserve_left=0)
    match.seats.filter(to_act=True).update(deadline=past)
    Match.objects.filter(pk=match.pk).update(deadline=past)


def time_out(match: Match) -> list[str]:
    """Run out of time now, through the deadline sweep's own action (what beat runs every minute)."""
    make_late(match)
    return actions.do_deadlines(match.pk, Match.objects.get(pk=match.pk).version)


def play_first_move(match: Match) -> Match:
    """The seat to act plays a legal move: a person has moved, so a later timeout is the game's
    consequence, not the abort of a match whose first player never moved (ruling SITE-ABORT)."""
    seat = user_to_act(match)
    actions.do_move(match.pk, seat.user, match.version, first_legal(match, seat.number))
    match.refresh_from_db()
    return match


def create_page_data(**extra) -> dict:
    """The new-match form's fields for a Solitaire Chess match with an open seat, changed by `extra`."""
    data = {
        "game": "solitaire-chess",
        "players": "2",
        "seat_1": "open",
        "invite_1": "",
        "option_ruleset": "death",
        "option_advantage": "random",
        "time_preset": "daily",
    }
    data.update(extra)
    return data


def assert_nothing_locked(*querysets) -> None:
    """From another connection (another thread), lock each row without waiting: it must be free."""
    import threading

    from django.db import connection, transaction

    errors = []

    def lock() -> None:
        try:
            with transaction.atomic():
                for queryset in querysets:
                    list(queryset.select_for_update(nowait=True))
        except Exception as error:  # noqa: BLE001 - reported to the test thread
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=lock)
    thread.start()
    thread.join()
    assert not errors, f"a row is locked while the mail server is talked to: {errors}"


SHORT_OPTIONS = {"dizzy-duo-battle": {"lives": 4}}  # a whole match in a few dozen moves


def play_against_random_bots(user, slug: str, capture) -> Match:
    """`user` in seat 0 against random bots, every seat playing legal moves through the real actions,
    to the end (`capture`: pytest-django's django_capture_on_commit_callbacks, so bots move)."""
    engine = get_engine(slug)
    bots = [SeatSpec("bot", "random") for _ in range(engine.min_players - 1)]
    with capture(execute=True):
        match = actions.create_match(user, slug, [SeatSpec("me"), *bots], options=SHORT_OPTIONS.get(slug))
    for _ in range(engine.max_moves(engine.min_players, match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in engine.to_act(match.state):
            with capture(execute=True):
                actions.do_move(match.pk, user, match.version, engine.legal_moves(match.state, 0)[-1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


@contextmanager
def counted_translations() -> Iterator[mock.MagicMock]:
    """Counts the translations made meanwhile (`.call_count`) at the one function every gettext,
    {% translate %} and lazy label goes through (warmed first: Django keeps it from then on)."""
    translation.gettext("warm")
    with mock.patch.object(translation._trans, "gettext", wraps=translation._trans.gettext) as spy:
        yield spy
