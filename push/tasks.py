"""Sending pushes, the way emails are sent (notifications/tasks.py): a task takes a delivery id,
claims the row (marked sending, committed), talks HTTP to the push service holding no lock and in no
transaction, then records the outcome (the claim and its lease: dizzysite/outbox.py). At most one push per
delivery; a gone device is deleted."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta

import requests
from celery import shared_task
from django.utils import timezone
from pywebpush import WebPushException, webpush

from dizzysite.outbox import Outbox, backoff, claim_countdown, queue_again
from games.presence import is_watching
from notifications.context import skip_reason as turn_skip_reason
from push.devices import refusal_at_send
from push.keys import vapid_keys
from push.models import PushDelivery, PushSubscription
from push.payloads import push_payload
from push.preferences import wants_push

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
HTTP_TIMEOUT = 10  # seconds for the push service to answer
TIME_TO_LIVE = 24 * 3600  # the push service keeps a push this long for a device that is offline
GONE = {404, 410}  # RFC 8030: the subscription has expired or was removed by the user
RETRIED = {429, 500, 502, 503, 504}


def send_lease() -> timedelta:
    """Longer than one HTTP exchange can last: a claim older than this belongs to a dead worker."""
    return timedelta(seconds=3 * HTTP_TIMEOUT + 10)


OUTBOX = Outbox(PushDelivery, send_lease, MAX_ATTEMPTS)


@dataclass
class Outcome:
    sent: bool = False
    gone: bool = False
    retry_after: int | None = None  # seconds the push service asked for, or None
    error: str = ""
    again: bool = False  # worth trying again


# max_retries=None: attempts are counted on the row (MAX_ATTEMPTS)
@shared_task(name="push.tasks.send_push", bind=True, max_retries=None)
def send_push(self, delivery_id: int) -> None:
    rows = PushDelivery.objects.select_related(
        "notification__match",
        "notification__tournament",
        "notification__championship",
        "notification__recipient",
        "subscription",
    )
    claim = OUTBOX.claim(rows, delivery_id, _skip_reason)  # None too when the device was deleted meanwhile
    if claim is None:
        return
    if isinstance(claim, timedelta):  # another worker is sending it now: look again after its lease
        raise self.retry(countdown=claim_countdown(claim))
    outcome = deliver(claim)
    if outcome.sent:
        PushSubscription.objects.filter(pk=claim.subscription_id).update(last_used=OUTBOX.sent(claim))
    elif outcome.gone:
        # The device unsubscribed or its subscription expired: forget it (its deliveries go with it).
        logger.info("push subscription %s is gone: %s", claim.subscription_id, outcome.error)
        PushSubscription.objects.filter(pk=claim.subscription_id).delete()
    elif OUTBOX.failed(claim, outcome.error, again=outcome.again):
        raise self.retry(countdown=max(backoff(claim.attempts), outcome.retry_after or 0))
    else:
        logger.warning("giving up on push delivery %s: %s", claim.pk, outcome.error)


def deliver(delivery: PushDelivery) -> Outcome:
    """One HTTP request to the device's push service; what happened, as an Outcome."""
    keys = vapid_keys()
    if keys is None:
        return Outcome(error="push is switched off (no VAPID keys)")
    try:
        refusal = refusal_at_send(delivery.subscription.endpoint)
    except OSError as error:  # the name did not resolve: perhaps a passing DNS failure
        return Outcome(error=f"{type(error).__name__}: {error}", again=True)
    if refusal:
        return Outcome(error=refusal)
    payload = push_payload(delivery.notification)
    urgent = delivery.notification.kind in ("your_turn", "reminder")
    try:
        with NoRedirects() as session:
            webpush(
                delivery.subscription.info(),
                data=json.dumps(payload, ensure_ascii=False),
                vapid_private_key=keys.vapid,
                vapid_claims={"sub": keys.subject},  # a fresh dict: webpush writes aud and exp into it
                ttl=TIME_TO_LIVE,
                timeout=HTTP_TIMEOUT,
                # Topic: the push service keeps only the latest push per match for a device that is offline.
                headers={"Urgency": "high" if urgent else "normal", "Topic": payload["tag"]},
                requests_session=session,
            )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        text = f"push service answered {status}"
        if status in GONE:
            return Outcome(gone=True, error=text)
        return Outcome(error=text, again=status in RETRIED or status is None, retry_after=_seconds(error))
    except requests.RequestException as error:
        return Outcome(error=f"{type(error).__name__}: {error}", again=True)
    return Outcome(sent=True)


class NoRedirects(requests.Session):
    """A push service answers; it never sends the worker on elsewhere (a redirect could point into our
    own network, past the check of the endpoint's address): a 3xx is an answer like any other."""

    def post(self, url, data=None, json=None, **kwargs):
        return super().post(url, data=data, json=json, **{**kwargs, "allow_redirects": False})


def _seconds(error: WebPushException) -> int | None:
    value = error.response.headers.get("Retry-After") if error.response is not None else None
    return int(value) if value and value.isdigit() else None


def _skip_reason(delivery: PushDelivery) -> str:
    """Why a waiting push should no longer go out (empty: send it)."""
    row = delivery.notification
    reason = turn_skip_reason(row)  # the emails' rule: no turn message once the turn has passed
    if reason:
        return reason
    if row.match_id is not None and is_watching(row.match_id, row.recipient_id):
        return "the player was looking at the board"
    if not wants_push(row.recipient, row.kind):
        return "no longer wanted by push"
    return ""


@shared_task(name="push.tasks.resend_waiting_pushes")
def resend_waiting_pushes() -> int:
    """A safety net: queue again pushes still pending a while after they were written, and the
    claims of workers that died mid-send."""
    now = timezone.now()
    # Two queries, each found by the status index (an OR of the two reads every row).
    lost = queue_again(send_push, PushDelivery.objects.filter(OUTBOX.lost(now)))
    return lost + queue_again(send_push, PushDelivery.objects.filter(OUTBOX.stale_claims(now)))
