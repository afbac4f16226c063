"""Stage 6: the load, driven with bench/web_load.py from this process: the bare view, each game's
board page, the idle poll and move submissions (Solitaire Chess), in interleaved rounds; each board
page's compressed size and stylesheet links as served."""

from __future__ import annotations

import gzip
import http.client
import json
import random
import re
import urllib.parse
from typing import Any

from bench.web.config import MOVE_GAME, PLAYERS, REPO, ROUNDS, SIZE_SAMPLE, Options, underscored
from bench.web.loading import Loaded
from bench.web.server import ServerCpu
from bench.web_load import Chains, Cycle, LoadResult, Req, Source, run_load


def cookie(session_key: str, csrf: str = "") -> str:
    return f"sessionid={session_key}" + (f"; csrftoken={csrf}" if csrf else "")


def plain(body: bytes) -> bytes:
    """A response body as HTML: every request asks for gzip (as browsers do)."""
    return gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body


def fetch_csrf(port: int, loaded: Loaded, user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """Per user: (csrftoken cookie, page token), from a Solitaire Chess board page as a browser gets
    them. A user whose page fails gets none (their moves are not sent); the first failure is printed."""
    match_of = {}
    for match_id, game, users in zip(loaded.match_ids, loaded.games, loaded.seat_users):
        for user_id in users:
            if game == MOVE_GAME:
                match_of.setdefault(user_id, match_id)
    tokens, failure = {}, ""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for user_id in sorted(user_ids):
        conn.request("GET", f"/matches/{match_of[user_id]}/", headers={"Cookie": cookie(loaded.sessions[user_id])})
        response = conn.getresponse()
        body = response.read().decode(errors="replace")
        set_cookie = " ".join(response.headers.get_all("Set-Cookie") or [])
        csrf_cookie = re.search(r"csrftoken=([A-Za-z0-9]+)", set_cookie)
        page_token = re.search(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"', body)
        if response.status == 200 and csrf_cookie and page_token:
            tokens[user_id] = (csrf_cookie.group(1), page_token.group(1))
        else:
            failure = failure or f"user {user_id}: status {response.status}: {body[:200]!r}"
    conn.close()
    if failure:
        print(f"  WARNING: no CSRF token for {len(user_ids) - len(tokens)} users, first: {failure}", flush=True)
    return tokens


STYLESHEET_LINK = re.compile(rb'<link\b[^>]*\brel="stylesheet"[^>]*>')


def served_page(port: int, loaded: Loaded, index: int) -> dict[str, Any]:
    """One board page as served to a browser asking for gzip: its sizes, encoding, stylesheets."""
    headers = {"Cookie": cookie(loaded.sessions[loaded.to_act_user[index]]), "Accept-Encoding": "gzip"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/matches/{loaded.match_ids[index]}/", headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"status {response.status}: {plain(body)[:200]!r}")
    html = plain(body)
    links = [link for link in STYLESHEET_LINK.findall(html) if b"css/site." not in link]
    return {
        "kb": len(body) / 1024,
        "raw_kb": len(html) / 1024,
        "compressed": (response.getheader("Content-Encoding") or "") in ("gzip", "br"),
        "stylesheets": len(links),
    }


def served_pages(port: int, loaded: Loaded) -> dict[str, dict[str, Any]]:
    """Per game, over SIZE_SAMPLE late matches: the largest page, whether all came compressed, and
    the stylesheet links besides css/site.css (the most of any page)."""
    figures: dict[str, dict[str, Any]] = {}
    for game in PLAYERS:
        try:
            pages = [served_page(port, loaded, i) for i in loaded.pick(game, late=True)[:SIZE_SAMPLE]]
        except Exception as error:  # noqa: BLE001 - a board being rewritten: reported, others measured
            figures[game] = {"error": f"{type(error).__name__}: {error}"[:300]}
            continue
        figures[game] = {
            "kb": round(max(p["kb"] for p in pages), 1),
            "raw_kb": round(max(p["raw_kb"] for p in pages), 1),
            "served_compressed": all(p["compressed"] for p in pages),
            "stylesheets": max(p["stylesheets"] for p in pages),
        }
    return figures


def css_imports() -> list[str]:
    """Stylesheets under static/css that load another through @import."""
    return [
        str(path.relative_to(REPO))
        for path in sorted((REPO / "static" / "css").rglob("*.css"))
        if "@import" in path.read_text(errors="replace")
    ]


def spread(requests: list[Req], threads: int) -> list[Source]:
    return [Cycle(requests, offset=len(requests) * t // threads) for t in range(threads)]


def is_board(status: int, body: bytes) -> bool:
    return status == 200 and b'id="board"' in plain(body)


def is_moved(status: int, body: bytes) -> bool:
    """The move's answer is 200 with the new board, or 400/403/409 with the error shown (role="alert")."""
    return status == 200 and b'role="alert"' not in plain(body)


def endpoints_for(port: int, loaded: Loaded, opts: Options) -> dict[str, tuple[list[Source], Any]]:
    """name -> (sources, check). Sources keep their place between rounds (move chains go on)."""
    order = list(range(len(loaded.match_ids)))
    random.Random(7).shuffle(order)  # new and late matches mixed, users spread
    # Moves go to half of the Solitaire Chess matches; board pages and polls to the others: a moved
    # match has a new revision (its poll would get the board, not 204) and a new player to act.
    movable = [i for i in order if loaded.games[i] == MOVE_GAME]
    moving = movable[len(movable) // 2 :]
    moving_set = set(moving)
    still = [i for i in order if i not in moving_set]

    def as_player(i: int) -> dict[str, str]:
        return {"Cookie": cookie(loaded.sessions[loaded.to_act_user[i]]), "Accept-Encoding": "gzip"}

    def is_bare(status: int, body: bytes) -> bool:
        return status == 200 and body == b"ok"

    endpoints: dict[str, tuple[list[Source], Any]] = {}
    # Baseline: the same logged-in players, so the session and user lookups that every page pays
    # (UserTimezoneMiddleware reads request.user) are in the baseline, not in the ratios.
    bare = [Req("GET", "/bench/bare/", as_player(i)) for i in order]
    endpoints["bare"] = (spread(bare, opts.threads), is_bare)
    endpoints["bare_anon"] = (spread([Req("GET", "/bench/bare/", {})], opts.threads), is_bare)
    # Each game's full board page in its heaviest state, as the player to act opens it.
    for game in PLAYERS:
        board = [
            Req("GET", f"/matches/{loaded.match_ids[i]}/", as_player(i))
            for i in still
            if loaded.games[i] == game and loaded.late[i]
        ]
        endpoints[f"board_{underscored(game)}"] = (spread(board, opts.threads), is_board)
    # The idle poll of an open board page: htmx every DIZZY_POLL_SECONDS, answered 204.
    poll = [
        Req(
            "GET",
            f"/matches/{loaded.match_ids[i]}/?since={loaded.revisions[i]}",
            {**as_player(i), "HX-Request": "true"},
        )
        for i in still
    ]
    endpoints["poll"] = (spread(poll, opts.threads), lambda status, body: status == 204)
    # Moves as the board's form sends them (hx-post), each legal at its version, by the seat to act.
    tokens = fetch_csrf(port, loaded, {user_id for i in moving for user_id, _, _ in loaded.chains[i]})
    chains = [move_requests(loaded, i, tokens) for i in moving]
    endpoints["move"] = ([Chains(chains[t :: opts.threads]) for t in range(opts.threads)], is_moved)
    return endpoints


def run_all_loads(port: int, loaded: Loaded, opts: Options, cpu: ServerCpu) -> dict[str, LoadResult]:
    """Warm every endpoint up, then measure them in turns, ROUNDS times each, and add up.

    Taking turns spreads any change in the machine's other load over all endpoints alike, so the
    ratios to the baseline stay fair on a shared machine."""
    endpoints = endpoints_for(port, loaded, opts)
    print(f"  warming up ({opts.warmup:g} s per endpoint) ...", flush=True)
    for name, (sources, check) in endpoints.items():
        run_load(name, port, sources, check, opts.warmup, 0)
    results: dict[str, LoadResult] = {}
    for round_number in range(1, ROUNDS + 1):
        print(f"  round {round_number} of {ROUNDS}: {', '.join(endpoints)} ...", flush=True)
        for name, (sources, check) in endpoints.items():
            part = run_load(name, port, sources, check, opts.seconds / ROUNDS, 0, cpu_sample=cpu.sample)
            results[name] = results[name].merge(part) if name in results else part
    return results


def move_requests(loaded: Loaded, i: int, tokens: dict[int, tuple[str, str]]) -> list[Req]:
    """Match i's prepared moves as POSTs, each by the user of the seat to act at that version."""
    requests = []
    for user_id, version, move in loaded.chains[i]:
        if user_id not in tokens:
            break  # the chain cannot go on without this player
        csrf_cookie, page_token = tokens[user_id]
        form = {
            "csrfmiddlewaretoken": page_token,
            "version": version,
            "move": json.dumps(move, separators=(",", ":"), sort_keys=True),
        }
        headers = {
            "Cookie": cookie(loaded.sessions[user_id], csrf_cookie),
            "X-CSRFToken": page_token,  # what htmx sends (base.html's hx-headers)
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept-Encoding": "gzip",
        }
        requests.append(
            Req("POST", f"/matches/{loaded.match_ids[i]}/move/", headers, urllib.parse.urlencode(form).encode())
        )
    return requests
