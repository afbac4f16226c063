"""Stage 4, in-process (Django test Client): queries per request, and where a board page's time goes
(queries, engine, presenter, templates, gzip)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from bench.web.config import MOVE_GAME, PLAYERS, REPO
from bench.web.loading import Loaded


def player_client(loaded: Loaded, user_id: int):
    """An in-process test Client (same settings, same database) signed in with the user's bench session."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = loaded.sessions[user_id]
    return client


def to_act_user(match_id: int) -> int:
    from games.models import Seat

    return Seat.objects.filter(match_id=match_id, to_act=True).values_list("user_id", flat=True)[0]


def request_sql(user_id: int, loaded: Loaded, method: str, path: str, expect: int, data=None, **headers) -> list[str]:
    """The queries of one request, in-process, as short_sql(); raises when the status is not `expect`."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = player_client(loaded, user_id)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, **headers) if method == "POST" else client.get(path, **headers)
    if response.status_code != expect:
        raise RuntimeError(f"{method} {path}: status {response.status_code}, expected {expect}")
    return [short_sql(query["sql"]) for query in queries.captured_queries]


def board_queries(loaded: Loaded, game: str) -> dict[str, int]:
    """Queries of the game's board page as the player to act: at move 1, late, with 200 Move rows."""
    probes = {
        "move 1": loaded.match_ids[loaded.pick(game, late=False)[0]],
        "late": loaded.match_ids[loaded.pick(game, late=True)[0]],
        "move 200": loaded.probe_200[game],
    }
    counts = {}
    for label, match_id in probes.items():
        user_id = to_act_user(match_id)
        request_sql(user_id, loaded, "GET", f"/matches/{match_id}/", 200)  # the first one pays for imports
        counts[label] = len(request_sql(user_id, loaded, "GET", f"/matches/{match_id}/", 200))
    return counts


def count_queries(loaded: Loaded) -> dict[str, Any]:
    """Queries per request: every board page, the bare view, the idle poll and a move POST."""
    boards: dict[str, Any] = {}
    for game in PLAYERS:
        try:
            boards[game] = board_queries(loaded, game)
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            boards[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
    first = loaded.pick(MOVE_GAME, late=False)[0]
    match_id, user_id = loaded.match_ids[first], loaded.to_act_user[first]
    poll = f"/matches/{match_id}/?since={loaded.revisions[first]}"
    move_data = {"version": loaded.probe_move_version, "move": json.dumps(loaded.probe_move)}
    move_path = f"/matches/{loaded.probe_move_id}/move/"
    move_sql = request_sql(loaded.probe_move_user, loaded, "POST", move_path, 200, move_data, HTTP_HX_REQUEST="true")
    return {
        "boards": boards,
        "bare": len(request_sql(user_id, loaded, "GET", "/bench/bare/", 200)),
        "poll": len(request_sql(user_id, loaded, "GET", poll, 204, HTTP_HX_REQUEST="true")),
        "move": len(move_sql),
        "move_sql": move_sql,
    }


def board_request(match_id: int, user):
    """The board page's request as the views and templates see it, without the middleware."""
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    request = RequestFactory(HTTP_HOST="127.0.0.1").get(f"/matches/{match_id}/")
    request.user = user
    request.htmx = HtmxDetails(request)
    return request


class QueryTimer:
    """An execute_wrapper: the SQL of each query on the connection and their database time."""

    def __init__(self) -> None:
        self.sql: list[str] = []
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.sql.append(sql)


def short_sql(sql: str) -> str:
    """ "SELECT games_match": the statement's verb and first table."""
    table = re.search(r'(?:FROM|UPDATE|INTO)\s+"?(\w+)', sql, re.IGNORECASE)
    return f"{sql.split(None, 1)[0].upper()} {table.group(1) if table else ''}".strip()


def median_ms(action: Callable[[], Any], budget: float = 0.1) -> float:
    """Median CPU milliseconds of this thread in `action` (at least 11 runs, about `budget` seconds of
    CPU), after a warm-up. CPU time and the median, so other programs on a shared machine barely count;
    what a query costs PostgreSQL is not in it (the DB figure is the queries' wall time)."""
    for _ in range(3):
        action()
    times: list[float] = []
    while len(times) < 11 or sum(times) < budget:
        t0 = time.thread_time()
        action()
        times.append(time.thread_time() - t0)
    return sorted(times)[len(times) // 2] * 1000


def page_parts(loaded: Loaded, index: int) -> dict[str, Any]:
    """One whole board page (gzip asked for) as match `index`'s player to act: CPU ms, its queries and
    their median wall time over 11 requests."""
    from django.db import connection

    client, url = player_client(loaded, loaded.to_act_user[index]), f"/matches/{loaded.match_ids[index]}/"
    page_ms = median_ms(lambda: client.get(url, HTTP_ACCEPT_ENCODING="gzip"))
    timers = [QueryTimer() for _ in range(11)]
    for timer in timers:
        with connection.execute_wrapper(timer):
            client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    db_ms = sorted(timer.seconds for timer in timers)[len(timers) // 2] * 1000
    return {"page": page_ms, "queries": len(timers[0].sql), "db": db_ms, "sql": timers[0].sql}


def presence_call(match_id: int, user) -> Callable[[], Any] | None:
    """The board page's presence mark: in the cache (games.presence) or, before, a write to the seat."""
    from importlib import import_module

    from games import views

    presence = import_module("games.presence") if (REPO / "games" / "presence.py").exists() else None
    if presence is not None and hasattr(presence, "mark_watching"):
        return lambda: presence.mark_watching(match_id, user.pk)
    seen = getattr(views, "_seen", None)
    return (lambda: seen(match_id, user)) if seen else None


def step_calls(loaded: Loaded, index: int) -> dict[str, Callable[[], Any] | None]:
    """Each step of match `index`'s board page as its player to act, ready to run alone on prepared
    input (None: the site has no such step now): the presence mark, loading the match and seats, the
    board's whole context (of which the engine's view and legal moves, the presenter, a board still drawn
    by a Django template), the chat's template, the Jinja2 page, its frame alone, and gzip."""
    from django.template import engines
    from django.utils.text import compress_string

    from accounts.models import User
    from games import presenters, views
    from games.engines.registry import get_engine

    match_id, user = loaded.match_ids[index], User.objects.get(pk=loaded.to_act_user[index])
    request, match = board_request(match_id, user), views._get_match(match_id)
    engine, seat = get_engine(match.game), next(s.number for s in match.seats.all() if s.user_id == user.pk)
    pv = presenters.player_view(match, user, {"select": ""})
    legacy = getattr(views, "_legacy_board", None)
    context = views.match_context(request, match)
    page = engines["jinja2"].get_template("games/match.html")
    frame = engines["jinja2"].from_string('{% extends "base.html" %}')
    chat = engines["jinja2"].get_template("games/_chat.html")  # drawn inside the board's templates
    html = page.render(context, request).encode()
    return {
        "presence": presence_call(match_id, user),
        "match": lambda: views._get_match(match_id),
        "context": lambda: views.match_context(request, match),
        "view": lambda: engine.view(match.state, seat),
        "legal": lambda: engine.legal_moves(match.state, seat),
        "presenter": lambda: presenters.board_context(match.game, pv, {}),
        "chat": lambda: chat.render({"pv": pv}, request),
        "django_board": (lambda: legacy(request, pv)) if legacy and isinstance(pv.board, dict) else None,
        "templates": lambda: page.render(context, request),
        "frame": lambda: frame.render({}, request),
        "gzip": lambda: compress_string(html),
    }


def step_parts(loaded: Loaded, index: int) -> dict[str, float]:
    """step_calls() timed, CPU ms; 0 for a step the site does not have, -1 for one that failed."""
    parts = {}
    for name, call in step_calls(loaded, index).items():
        try:
            parts[name] = median_ms(call) if call else 0.0
        except Exception:  # noqa: BLE001 - the site changed under the bench: that step only is lost
            parts[name] = -1.0
    return parts


def breakdown(loaded: Loaded, game: str, bare_ms: float) -> dict[str, Any]:
    """Where the game's late board page's time goes (in-process, one thread, ms); its page at move 1."""
    late = loaded.pick(game, late=True)[0]
    parts: dict[str, Any] = {"bare": bare_ms, **page_parts(loaded, late), **step_parts(loaded, late)}
    parts["page_move1"] = page_parts(loaded, loaded.pick(game, late=False)[0])["page"]
    inside = ("view", "legal", "presenter", "django_board")
    parts["context_rest"] = parts["context"] - sum(parts[key] for key in inside)
    outside = ("bare", "presence", "match", "context", "templates", "gzip")
    parts["other"] = parts["page"] - sum(parts[key] for key in outside)
    parts["sql"] = [short_sql(sql) for sql in parts["sql"]]
    parts["drawing"] = sum(parts[key] for key in ("view", "legal", "presenter", "templates", "gzip"))
    return {key: round(value, 2) if isinstance(value, float) else value for key, value in parts.items()}


def breakdowns(loaded: Loaded) -> dict[str, dict[str, Any]]:
    """breakdown() of every game, as the player to act."""
    first = loaded.pick(MOVE_GAME, late=False)[0]
    bare_client = player_client(loaded, loaded.to_act_user[first])
    bare_ms = median_ms(lambda: bare_client.get("/bench/bare/", HTTP_ACCEPT_ENCODING="gzip"))
    result: dict[str, dict[str, Any]] = {}
    for game in PLAYERS:
        try:
            result[game] = breakdown(loaded, game, bare_ms)
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            result[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
    return result
