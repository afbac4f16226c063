"""Signing in to a closed account within its grace period reopens it (the privacy page says so).

A closed account is inactive, so the usual backends refuse it; this one, first in
AUTHENTICATION_BACKENDS, takes the sign-in form's username or email and password for a closed,
not yet erased account, reopens it when the password is right, and hands the user on to be signed in
as usual. allauth's limits on failed sign-ins apply before any backend is asked.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.db.models import Q

from accounts.actions import do_reopen_account
from accounts.models import User


class ReopenClosedAccountBackend(ModelBackend):
    def authenticate(self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any):
        login = username or kwargs.get("email")
        if not login or not password:
            return None
        closed = User.objects.filter(
            Q(username__iexact=login) | Q(email__iexact=login), closed_at__isnull=False, erased_at__isnull=True
        )
        for user in closed:
            if user.check_password(password) and do_reopen_account(user.pk):
                return User.objects.get(pk=user.pk)
        return None
