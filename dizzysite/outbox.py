"""The claim-and-lease outbox that emails (notifications/tasks.py) and pushes (push/tasks.py) share.

A task takes a row's id and claims the row in a short transaction (marked sending, committed); the
worker then talks to the outside (SMTP, a push service) holding no lock and in no transaction, and
records the outcome only on a row it still holds (status still sending). A second task finds the row
sent, or claimed and waits for the claim's lease; a worker killed mid-send leaves a claim that is taken
over once its lease has passed. Attempts are counted on the row.

A row of an outbox has `status` (its model's Status has PENDING, SENDING, SENT, SKIPPED and FAILED),
`claimed_at`, `attempts`, `error`, `sent_at` and `created`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

RESEND_AFTER = timedelta(minutes=10)  # a row still pending this long after it was written was lost
RESEND_BATCH = 500  # rows queued again per run of a safety net


@dataclass(frozen=True)
class Outbox:
    model: type[models.Model]
    lease: Callable[[], timedelta]  # longer than one send can last: an older claim is a dead worker's
    max_attempts: int

    def claim(self, rows: models.QuerySet, pk: int, skip_reason: Callable[[Any], str]) -> Any | timedelta | None:
        """In a short transaction: the row `pk` of `rows`, now marked sending; or how long another
        worker's claim still runs; or None when there is nothing to send (sent already, skipped, gone).
        `skip_reason` says why a waiting row should no longer go out (empty: send it)."""
        now = timezone.now()
        status = self.model.Status
        with transaction.atomic():
            row = rows.select_for_update(of=("self",)).filter(pk=pk).first()  # not the rows it names
            if row is None:
                return None
            if row.status == status.SENDING and row.claimed_at + self.lease() > now:
                return row.claimed_at + self.lease() - now
            if row.status not in (status.PENDING, status.SENDING):
                return None  # sent already (a retried or repeated task), skipped or failed
            reason = skip_reason(row)
            if reason:
                row.status, row.error = status.SKIPPED, reason
                row.save(update_fields=["status", "error"])
                return None
            row.status, row.claimed_at, row.attempts = status.SENDING, now, row.attempts + 1
            row.save(update_fields=["status", "claimed_at", "attempts"])
            return row

    def sent(self, row: Any) -> datetime:
        """Record the send (if the claim is still ours); the moment recorded."""
        now = timezone.now()
        status = self.model.Status
        self.model.objects.filter(pk=row.pk, status=status.SENDING).update(status=status.SENT, sent_at=now, error="")
        return now

    def failed(self, row: Any, error: str, again: bool = True) -> bool:
        """The send failed: True when the row is to be tried again (`again` and attempts are left),
        then it waits as pending; else it is marked failed."""
        again = again and row.attempts < self.max_attempts
        status = self.model.Status
        self.model.objects.filter(pk=row.pk, status=status.SENDING).update(
            status=status.PENDING if again else status.FAILED, error=error
        )
        return again

    def stale_claims(self, now: datetime) -> Q:
        """Claims whose lease has passed: their worker died mid-send."""
        return Q(status=self.model.Status.SENDING, claimed_at__lt=now - self.lease())

    def lost(self, now: datetime) -> Q:
        """Rows never tried a while after they were written (their task was lost)."""
        return Q(status=self.model.Status.PENDING, created__lt=now - RESEND_AFTER, attempts=0)


def claim_countdown(left: timedelta) -> int:
    """Seconds to wait for another worker's claim (`left` of its lease): until just after it ends."""
    return max(1, int(left.total_seconds()) + 1)


def backoff(attempts: int) -> int:
    """Seconds before trying a row again after its `attempts`-th failure: 30 s, 1 min, 2 min, ..."""
    return 30 * 2 ** (attempts - 1)


def queue_again(task: Any, rows: models.QuerySet) -> int:
    """A safety net's run: queue `task` again for (a batch of) these rows; how many."""
    ids = list(rows.values_list("pk", flat=True)[:RESEND_BATCH])
    for pk in ids:
        task.delay(pk)
    return len(ids)
