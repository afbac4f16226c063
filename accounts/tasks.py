"""The account's tasks: they take ids, re-read the database and are safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from accounts import actions

logger = logging.getLogger(__name__)


@shared_task(name="accounts.tasks.export_user_data", autoretry_for=(OperationalError,), retry_backoff=2, max_retries=5)
def export_user_data(user_id: int) -> int:
    """Queued when a player asks for a copy of their data: builds their waiting copies from the
    database as it is now and mails the links after the commit (a second run finds none waiting)."""
    return actions.do_build_data_exports(user_id)


@shared_task(name="accounts.tasks.erase_closed_accounts")
def erase_closed_accounts() -> int:
    """Every hour (beat): erase the personal data of the accounts closed ERASE_AFTER_DAYS ago, each in
    its own transaction with its row locked (a second run finds them erased)."""
    erased = 0
    for user_id in actions.accounts_to_erase(timezone.now()):
        try:
            erased += actions.do_erase_account(user_id)
        except Exception:  # one broken account must not stop the others
            logger.exception("erasing closed account %s", user_id)
    return erased
