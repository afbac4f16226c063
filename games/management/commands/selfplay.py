"""Bots against bots through an engine: one line per match, then a one-line JSON summary."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.engines.base import BadOptions
from games.engines.playout import play
from games.engines.registry import available_engines, get_bots


class Command(BaseCommand):
    help = "Play whole matches between bots, checking the engine's invariants after every move."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--players", type=int, default=None)
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument("--bot", action="append", default=[], metavar="LEVEL", help="one per seat, in order")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")

    def handle(self, *args, **opts):
        engines = available_engines()
        engine = engines.get(opts["slug"])
        if engine is None:
            raise CommandError(f"unknown game {opts['slug']!r}; games: {', '.join(engines)}")
        players = opts["players"] or engine.min_players
        raw_options = {}
        for item in opts["option"]:
            key, sep, value = item.partition("=")
            if not sep:
                raise CommandError(f"--option takes key=value, got {item!r}")
            raw_options[key] = value
        try:
            options = engine.parse_options(raw_options, players)
        except BadOptions as error:
            raise CommandError(str(error)) from None
        levels = opts["bot"]
        bots = get_bots(engine.slug)
        for level in levels:
            if level not in bots:
                raise CommandError(f"{engine.name} has no bot {level!r}; bots: {', '.join(bots)}")
        if len(levels) > players:
            raise CommandError(f"{len(levels)} bots for {players} seats")

        wins = [0] * players
        draws = finished = total_moves = 0
        seconds = 0.0
        for index in range(opts["matches"]):
            seed = opts["seed"] * 1_000_003 + index
            record = play(engine, players, options, seed, levels, check=not opts["no_check"])
            total_moves += len(record.moves)
            seconds += record.seconds_in_bots + record.seconds_in_engine
            result = record.result
            if result is not None:
                finished += 1
                if result["draw"] or not result["winners"]:
                    draws += 1
                for seat in result["winners"]:
                    wins[seat] += 1
            winners = ", ".join(f"seat {s}" for s in (result or {}).get("winners", [])) or "nobody"
            self.stdout.write(
                f"match {index + 1}: seed {seed}, {len(record.moves)} moves, won by {winners}"
                f" ({(result or {}).get('reason', 'unfinished')})"
            )
        summary = {
            "game": engine.slug,
            "matches": opts["matches"],
            "finished": finished,
            "moves": total_moves,
            "wins": {str(seat): count for seat, count in enumerate(wins)},
            "draws": draws,
            "bots": levels + ["random"] * (players - len(levels)),
            "ms_per_move": round(1000 * seconds / max(total_moves, 1), 3),
        }
        self.stdout.write(json.dumps(summary))
