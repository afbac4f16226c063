"""manage.py replay FILE: rebuild a downloaded match record's final state and check its result."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ratings.replay import RecordError, check_record


class Command(BaseCommand):
    help = "Replay a match record (JSON, from a finished match's page) through the engine and check its result."

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
        except RecordError as error:
            raise CommandError(f"mismatch: {error}") from None
        self.stdout.write(line)
