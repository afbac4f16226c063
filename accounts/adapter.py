"""What the site changes of allauth's account handling that is the accounts' own (the emails are
notifications': notifications.adapter.AccountAdapter extends this one)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.forms import BaseForm
from django.http import HttpRequest

from accounts.models import User


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user: User, form: BaseForm, commit: bool = True) -> User:
        """A new account takes the time zone its sign-up form found (accounts.forms.SignupForm), in
        the same save that creates it."""
        zone = form.cleaned_data.get("time_zone")
        if zone:
            user.time_zone = zone
        return super().save_user(request, user, form, commit=commit)
