"""`manage.py archive_moves [--all] [--batch N]`: what the archive sweep does every ten minutes
(games.tasks.archive_ended_matches), at once: for an existing site's backlog of ended
matches whose moves are still rows. --all goes on batch after batch until none is left."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from games import actions


class Command(BaseCommand):
    help = (
        "Archive the moves of ended matches (ended more than MOVE_ARCHIVE_AFTER_SECONDS ago) into one row "
        "each: one batch, or with --all every one."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--all", action="store_true", help="batch after batch until none is left")
        parser.add_argument("--batch", type=int, default=settings.MOVE_ARCHIVE_BATCH, help="matches a batch")

    def handle(self, *args, **options) -> None:
        total = 0
        while True:
            done = actions.do_archive_batch(options["batch"])
            total += done
            # A batch that archived nothing (another run took them) ends --all too: no endless loop.
            if not options["all"] or done == 0:
                break
        self.stdout.write(f"archived the moves of {total} matches")
