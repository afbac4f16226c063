"""What players see, recorded for whole games of every game, to compare two checkouts.

    .venv/bin/python bench/site_golden.py OUT.json      (GOLDEN_GAMES=solitaire-chess,...: only those)

the refactor must change nothing players see. This script plays whole games of every game on
a database of its own (created and dropped here, under dizzysite.settings_test: PostgreSQL when it is
reachable, else SQLite; TEST_DATABASE_URL chooses), with Celery eager and the locmem email backend,
and writes one JSON file. Run it on two checkouts and diff the files (`diff <(jq -S . a) <(jq -S . b)`,
or compare the JSON in Python).

Per game: seeds 1 and 2, every player count from the game's least to at most 3; with seed 1 every
seat is a person, with seed 2 the last seat is the "random" bot; in seed 3 (the least players, all
people) the first person other than the creator to move at step 6 or later resigns instead. People
play through the Django test client: they accept their invitation (POST join) and post their moves to
the move URL as HTMX does; their move is the legal move a generator seeded by the game, seed and step
picks. A game still running after MAX_STEPS steps (random movers rarely end Dizzy Duo Battle) is ended
by the people after the creator resigning in turn. The match's own seed comes from the same numbers
(secrets.randbits is replaced in the lobby), and time is frozen (time-machine) and moved on 30 seconds
a step, so both runs see the same clocks and presence marks, and a fresh database gives the same ids.

Recorded per step: the mover, the move, the move POST's answer (status and fragment), then every seat's
and a spectator's board fragment (GET with HX-Request). At each match's end: the history page and the
whole match page of every seat and the spectator, every Move row's log entries (text and audience),
the result. At the very end: every email sent (to, subject, body, alternatives), every Notification
row (recipient, kind, match, turn, status, in_digest), every PushDelivery row (recipient, kind,
status) with the payload each push would have carried, every RatingChange. HTML is normalised: CSRF
tokens, the server clock (now_ms) and asset hashes removed, whitespace collapsed.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings_test")
os.environ.setdefault("TEST_DATABASE_NAME", f"golden_dizzysite_{os.getpid()}")

import django  # noqa: E402

django.setup()

import time_machine  # noqa: E402
from django.core import mail  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday morning
STEP_SECONDS = 30  # longer than games.presence.PRESENCE_SECONDS: each turn's email is sent
MAX_STEPS = 300  # a game the random movers do not end in this many steps is ended by resignations
PEOPLE = ["alice", "bob", "carol"]
SPECTATOR = "dave"
HX = {"HTTP_HX_REQUEST": "true"}

NORMALISE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken" value="-"'),
    (re.compile(r'"csrfToken":\s*"[^"]*"|csrf[_-]?token["\']?\s*[:=]\s*["\'][^"\']*["\']', re.I), "csrf=-"),
    (re.compile(r'(hx-headers=\'\{"X-CSRFToken": ")[^"]*'), r"\1-"),
    (re.compile(r'data-now-ms="\d+"|now_ms\s*=\s*\d+|"now_ms":\s*\d+'), "now_ms=-"),
    (re.compile(r"\.[0-9a-f]{12}\.(css|js|svg|png)"), r".\1"),
    (re.compile(r"\s+"), " "),
]


def normalise(html: str) -> str:
    for pattern, replacement in NORMALISE:
        html = pattern.sub(replacement, html)
    return html.strip()


def make_users() -> dict[str, Any]:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    from push.models import PushSubscription

    users = {}
    for name in [*PEOPLE, SPECTATOR]:
        user = get_user_model().objects.create_user(name, f"{name}@example.com", "pw-" + name)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        users[name] = user
    # A device for two of them, so that pushes are queued (the sending itself is recorded, not made).
    for name in ("alice", "bob"):
        PushSubscription.objects.create(
            user=users[name],
            endpoint=f"http://127.0.0.1:9/push/{name}",
            p256dh="BOr0g2r0" * 11,
            auth="YXV0aGF1dGhhdXRoYXV0aA",
            label="Firefox on Linux",
        )
    return users


def clients(users: dict[str, Any]) -> dict[str, Client]:
    logged_in = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        logged_in[name] = client
    return logged_in


def fragment(client: Client, match_id: int) -> dict[str, Any]:
    response = client.get(f"/matches/{match_id}/", **HX)
    return {"status": response.status_code, "html": normalise(response.content.decode())}


def all_views(match, people: list[str], cl: dict[str, Client]) -> dict[str, Any]:
    return {name: fragment(cl[name], match.pk) for name in [*people, SPECTATOR]}


def create(game: str, players: int, seed: int, bot_last: bool, users, cl) -> tuple[Any, list[str]]:
    from games import actions

    seat_spec = getattr(actions, "SeatSpec", None)
    if seat_spec is None:  # newer checkouts keep it in games.seats
        from games.seats import SeatSpec as seat_spec
    people = PEOPLE[:players]
    if bot_last:
        people = people[:-1]
    seats = [seat_spec("me")] + [seat_spec("invite", name) for name in people[1:]]
    if bot_last:
        seats.append(seat_spec("bot", "random"))
    match_seed = random.Random(f"{game}/{players}/{seed}").getrandbits(128)
    with mock.patch("games.actions.lobby.secrets.randbits", return_value=match_seed):
        match = actions.create_match(users[people[0]], game, seats, options={})
        for name in people[1:]:
            cl[name].post(f"/matches/{match.pk}/join/")
    match.refresh_from_db()
    return match, people


def seat_of(match, name: str) -> int | None:
    seat = match.seats.filter(user__username=name).first()
    return seat.number if seat else None


def play(game: str, players: int, seed: int, bot_last: bool, resign_at: int | None, users, cl, traveller):
    from games.engines.registry import get_engine
    from games.models import Match

    engine = get_engine(game)
    match, people = create(game, players, seed, bot_last, users, cl)
    chooser = random.Random(f"{game}/{players}/{seed}/moves")
    steps: list[dict[str, Any]] = [{"start": True, "views": all_views(match, people, cl)}]
    for step in range(MAX_STEPS):
        traveller.shift(STEP_SECONDS)
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        to_act = list(match.seats.filter(to_act=True, user__isnull=False, handed_to_bot=False).order_by("number"))
        to_act = [seat for seat in to_act if seat.user.username in people]
        if not to_act:
            steps.append({"stuck": True, "status": match.status})
            break
        seat = to_act[0]
        name = seat.user.username
        if resign_at is not None and step >= resign_at and name != people[0]:
            response = cl[name].post(f"/matches/{match.pk}/resign/", **HX)
            record = {"step": step, "seat": seat.number, "by": name, "resign": True}
            resign_at = None
        else:
            legal = engine.legal_moves(match.state, seat.number)
            move = legal[chooser.randrange(len(legal))]
            payload = {"version": match.version, "move": json.dumps(move)}
            response = cl[name].post(f"/matches/{match.pk}/move/", payload, **HX)
            record = {"step": step, "seat": seat.number, "by": name, "move": move}
        record["answer"] = {"status": response.status_code, "html": normalise(response.content.decode())}
        record["views"] = all_views(match, people, cl)
        steps.append(record)
    steps.extend(resign_the_rest(match, people, cl, traveller))
    return finish_record(Match.objects.get(pk=match.pk), people, cl, steps)


def resign_the_rest(match, people: list[str], cl, traveller) -> list[dict[str, Any]]:
    """A game the random movers did not end in MAX_STEPS (Dizzy Duo Battle's): the people after the
    first resign in turn, so that resignations, seats handed to bots and the end are seen too."""
    from games.models import Match

    steps = []
    for name in people[1:]:
        traveller.shift(STEP_SECONDS)
        if Match.objects.get(pk=match.pk).status != Match.Status.ACTIVE:
            break
        response = cl[name].post(f"/matches/{match.pk}/resign/", **HX)
        answer = {"status": response.status_code, "html": normalise(response.content.decode())}
        steps.append({"cut": True, "by": name, "resign": True, "answer": answer, "views": all_views(match, people, cl)})
    return steps


def finish_record(match, people: list[str], cl, steps) -> dict[str, Any]:
    viewers = [*people, SPECTATOR]
    return {
        "match": match.pk,
        "status": match.status,
        "result": match.result,
        "end_reason": match.end_reason,
        "end_reason_words": match.end_reason_words,
        "seats": [
            {
                "number": seat.number,
                "user": seat.user.username if seat.user else None,
                "bot_level": seat.bot_level,
                "handed_to_bot": seat.handed_to_bot,
                "resigned": seat.resigned,
            }
            for seat in match.seats.select_related("user").order_by("number")
        ],
        "moves": [
            {"number": m.number, "seat": m.seat, "kind": m.kind, "by_bot": m.by_bot, "payload": m.payload, "log": m.log}
            for m in match.moves.order_by("number")
        ],
        "steps": steps,
        "history": {
            name: normalise(cl[name].get(f"/matches/{match.pk}/history/").content.decode()) for name in viewers
        },
        "page": {name: normalise(cl[name].get(f"/matches/{match.pk}/").content.decode()) for name in viewers},
    }


def outcomes(pushes: list[dict[str, Any]]) -> dict[str, Any]:
    from notifications.models import Notification
    from push.models import PushDelivery
    from ratings.models import RatingChange

    return {
        "emails": [
            {
                "to": m.to,
                "subject": m.subject,
                "body": m.body,
                "alternatives": [[normalise(content), kind] for content, kind in getattr(m, "alternatives", [])],
                "headers": {
                    k: v for k, v in sorted(m.extra_headers.items()) if k.lower() not in ("message-id", "date")
                },
            }
            for m in mail.outbox
        ],
        "notifications": [
            {
                "recipient": n.recipient.username,
                "kind": n.kind,
                "match": n.match_id,
                "turn": n.turn,
                "status": n.status,
                "in_digest": n.in_digest,
                "error": n.error,
            }
            for n in Notification.objects.select_related("recipient").order_by("pk")
        ],
        "push_deliveries": [
            {
                "recipient": d.notification.recipient.username,
                "kind": d.notification.kind,
                "match": d.notification.match_id,
                "status": d.status,
                "error": d.error,
            }
            for d in PushDelivery.objects.select_related("notification__recipient").order_by("pk")
        ],
        "pushes": pushes,
        "rating_changes": [
            {
                "match": c.match_id,
                "seat": c.seat,
                "who": c.rating.user.username if c.rating.user else f"bot:{c.rating.bot_level}",
                "pool": c.rating.pool,
                "outcome": c.outcome,
                "before": [round(c.mu_before, 9), round(c.sigma_before, 9)],
                "after": [round(c.mu_after, 9), round(c.sigma_after, 9)],
            }
            for c in RatingChange.objects.select_related("rating__user").order_by("pk")
        ],
    }


def run_all() -> dict[str, Any]:
    from games.engines.registry import GAMES, get_engine

    pushes: list[dict[str, Any]] = []

    def fake_webpush(info, data, **kwargs):  # the push service is not called; what it would get is kept
        pushes.append({"endpoint": info["endpoint"], "data": json.loads(data), "headers": kwargs.get("headers")})

    matches: dict[str, Any] = {}
    with time_machine.travel(START, tick=False) as traveller, mock.patch("push.tasks.webpush", fake_webpush):
        users = make_users()
        cl = clients(users)
        only = os.environ.get("GOLDEN_GAMES", "")  # a comma-separated list of slugs, for a quick try
        for game in [slug for slug in GAMES if not only or slug in only.split(",")]:
            engine = get_engine(game)
            for players in range(engine.min_players, min(engine.max_players, 3) + 1):
                for seed, bot_last in ((1, False), (2, True)):
                    key = f"{game}/{players}p/seed{seed}"
                    print(key, flush=True)
                    matches[key] = play(game, players, seed, bot_last, None, users, cl, traveller)
            key = f"{game}/{engine.min_players}p/seed3-resign"
            print(key, flush=True)
            matches[key] = play(game, engine.min_players, 3, False, 6, users, cl, traveller)
        return {"matches": matches, **outcomes(pushes)}


def main() -> None:
    logging.getLogger("celery").setLevel(logging.WARNING)  # not a line per eager task
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "site_golden.json")
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        record = run_all()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    out.write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False, default=str))
    print(f"written {out}")


if __name__ == "__main__":
    main()
