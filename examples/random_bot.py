#!/usr/bin/env python3
"""A random bot for Dizzysite that uses nothing but the public API and Python's standard library.

    DIZZY_TOKEN=dzy_... python3 examples/random_bot.py --url http://127.0.0.1:8000
    python3 examples/random_bot.py --token dzy_... --create dizzy-duo-battle --option lives=1 --until-over

It follows its account's event stream (GET /api/v1/stream/event: one JSON object a line, first a
"turn" line for each match where it is its turn now, then one whenever a turn comes), and on each
"turn" it reads its view and legal moves and plays a random legal move with the state version,
while the view says it is its turn. If the stream ends (a server restart, a proxy), it opens it
again after a pause. --poll uses the long poll instead (GET matches/{id}/events), for a server
without streams. With --create it first starts a match against a random bot seat; with
--until-over it stops when that match (or --match) is over.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator


class Api:
    def __init__(self, url: str, token: str) -> None:
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict]:
        """(status, JSON answer); waits and retries when the rate limit answers 429."""
        while True:
            request = urllib.request.Request(
                self.base + path,
                data=None if body is None else json.dumps(body).encode(),
                method=method,
                headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    return response.status, json.load(response)
            except urllib.error.HTTPError as error:
                if error.code == 429:
                    time.sleep(int(error.headers.get("Retry-After", "5")))
                    continue
                text = error.read().decode("utf-8", "replace")
                try:
                    return error.code, json.loads(text)
                except ValueError:  # not the API's JSON (a proxy's or a server error page)
                    return error.code, {"detail": text[:200]}

    def stream(self, path: str) -> Iterator[dict]:
        """The events of an NDJSON stream as they come, heartbeats (empty lines) left out; ends when
        the server ends the stream. The read timeout is well past the 15 s heartbeat, so a dead
        connection shows up as an error instead of silence."""
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                line = raw.strip()
                if line:
                    yield json.loads(line)


def play_turn(api: Api, match_id: int, rng: random.Random) -> None:
    """Read my view and play a random legal move with its version, while it is my turn (a turn may
    take several moves); a 409 means: read again."""
    for _ in range(100):
        status, view = api.call("GET", f"/matches/{match_id}/view")
        if status != 200 or not view["my_turn"] or not view["legal"]:
            return
        move = rng.choice(view["legal"])
        status, answer = api.call("POST", f"/matches/{match_id}/moves", {"version": view["version"], "move": move})
        if status == 200:
            print(f"match {match_id}: played {json.dumps(move)} at version {view['version']}", flush=True)
        else:
            print(f"match {match_id}: {status} {answer.get('detail')}", flush=True)
            if status != 409:
                return


def wait_for_change(api: Api) -> None:
    """Nothing to play: long-poll the first match that waits on someone else (answers within 30 s)."""
    status, waiting = api.call("GET", "/matches?filter=waiting")
    if status != 200 or not waiting:
        time.sleep(2)
        return
    match = waiting[0]
    api.call("GET", f"/matches/{match['id']}/events?since={match['revision']}", timeout=90)


def is_over(api: Api, match_id: int | None) -> bool:
    if match_id is None:
        return False
    _, facts = api.call("GET", f"/matches/{match_id}")
    if facts["match"]["is_over"]:
        print(f"match {match_id} is over: {json.dumps(facts['match']['result'])}", flush=True)
        return True
    return False


def follow(api: Api, rng: random.Random, watched: int | None) -> int:
    """Play on each "turn" of the account's stream until the watched match (if any) is over."""
    while not is_over(api, watched):
        try:
            for event in api.stream("/stream/event"):
                if event["type"] == "turn":
                    play_turn(api, event["match"], rng)
                elif event["type"] == "finished" and event["match"] == watched:
                    break
        except (OSError, ValueError) as error:  # the connection broke: open the stream again
            print(f"the stream broke ({error}); opening it again", flush=True)
        time.sleep(1)  # the stream ended: a server restart, or a server that cannot hold streams
    return 0


def poll(api: Api, rng: random.Random, watched: int | None) -> int:
    """Without streams: list my turns, play them, long-poll while I wait."""
    while not is_over(api, watched):
        status, mine = api.call("GET", "/matches?filter=my_turn")
        if status != 200:
            sys.exit(f"the API answered {status}: {mine.get('detail')}")
        for match in mine:
            play_turn(api, match["id"], rng)
        if not mine:
            wait_for_change(api)
    return 0


def create_match(api: Api, game: str, options: list[str]) -> int:
    parsed = {}
    for option in options:
        name, _, value = option.partition("=")
        # JSON types as the schema asks: true/false for a yes-or-no option, a number for a number
        words = {"true": True, "false": False}
        parsed[name] = int(value) if value.lstrip("-").isdigit() else words.get(value.lower(), value)
    body = {"game": game, "others": [{"kind": "bot", "level": "random"}], "options": parsed}
    status, answer = api.call("POST", "/matches", body)
    if status != 201:
        sys.exit(f"could not create the match: {status} {answer.get('detail')}")
    print(f"created match {answer['match']['id']} ({game})", flush=True)
    return answer["match"]["id"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("DIZZY_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DIZZY_TOKEN", ""))
    parser.add_argument("--create", metavar="GAME", help="start a match against a random bot seat first")
    parser.add_argument("--option", action="append", default=[], help="a match option for --create, NAME=VALUE")
    parser.add_argument("--match", type=int, help="the match --until-over watches")
    parser.add_argument("--until-over", action="store_true", help="stop when that match is over")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--poll", action="store_true", help="long-poll instead of following the event stream")
    args = parser.parse_args()
    if not args.token:
        sys.exit("give a token: --token or DIZZY_TOKEN (create one on your settings page, API tokens)")
    api, rng = Api(args.url, args.token), random.Random(args.seed)
    created = create_match(api, args.create, args.option) if args.create else args.match
    watched = created if args.until_over else None
    return poll(api, rng, watched) if args.poll else follow(api, rng, watched)


if __name__ == "__main__":
    sys.exit(main())
