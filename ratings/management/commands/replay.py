"""manage.py replay FILE: check a downloaded match record's signature, rebuild its final state and
check its result. Says which of "moves", "result", "players" or "signature" does not match."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ratings.replay import RecordError, RecordMismatch, check_record


class Command(BaseCommand):
    help = (
        "Replay a match record (JSON, from an ended match's page) through the engine: checks the server's "
        "signature and the result, and names the parts (moves, result, players, signature) that do not match."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the record, as downloaded from /matches/<id>/record.json")

    def handle(self, *args, **options) -> None:
        try:
            with open(options["file"], encoding="utf-8") as handle:
                record = json.load(handle)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {options['file']}: {error}") from None
        try:
            line = check_record(record)
        except RecordMismatch as error:
            raise CommandError(f"mismatch in {', '.join(error.parts)}: {error}") from None
        except RecordError as error:
            raise CommandError(f"mismatch: {error}") from None
        self.stdout.write(line)
