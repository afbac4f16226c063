from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from notifications.emails import read_unsubscribe_token
from notifications.models import ALWAYS_SENT, CHOICES, Kind, preference, wants_push


class PreferencesForm(forms.Form):
    """The grid: per kind, email each time, in a daily digest or never (field `<kind>`), and push to
    the player's devices or not (field `push_<kind>`)."""

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in Kind:
            if kind not in ALWAYS_SENT:
                self.fields[kind.value] = forms.ChoiceField(
                    label=kind.label, choices=CHOICES, initial=preference(user, kind.value), widget=forms.RadioSelect
                )
            self.fields[f"push_{kind.value}"] = forms.BooleanField(
                label=f"{kind.label}: push", required=False, initial=wants_push(user, kind.value)
            )

    def rows(self) -> list[tuple[str, forms.BoundField | None, forms.BoundField]]:
        """(label, email field or None when always emailed, push field) for each kind."""
        return [
            (kind.label, self[kind.value] if kind.value in self.fields else None, self[f"push_{kind.value}"])
            for kind in Kind
        ]

    def save(self, user) -> None:
        data = self.cleaned_data
        user.email_preferences = {kind.value: data[kind.value] for kind in Kind if kind.value in data}
        user.push_preferences = {kind.value: data[f"push_{kind.value}"] for kind in Kind}
        user.save(update_fields=["email_preferences", "push_preferences"])


@login_required
def email_preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save(request.user)
        messages.success(request, gettext("Your notification preferences are saved."))
        return redirect("email_preferences")
    devices = request.user.push_subscriptions.count()
    context = {"form": form, "always": [k.label for k in ALWAYS_SENT], "devices": devices}
    return render(request, "notifications/preferences.html", context)


@csrf_exempt  # RFC 8058 one-click unsubscribe: the mail provider posts without our cookie; the token is the key
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a page with a button and changes nothing (mail scanners open links); POST unsubscribes."""
    try:
        user_id, kinds = read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, User.DoesNotExist):
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    # A digest's link stops every kind the digest held; the reminder is always sent.
    stopped = [kind for kind in kinds if kind not in ALWAYS_SENT]
    context = {"labels": [Kind(kind).label for kind in stopped], "always": not stopped}
    if request.method == "POST":
        if stopped:
            user.email_preferences = {**(user.email_preferences or {}), **{kind: "never" for kind in stopped}}
            user.save(update_fields=["email_preferences"])
        return render(request, "notifications/unsubscribe.html", {**context, "done": True})
    if not stopped:
        context["labels"] = [Kind(kind).label for kind in kinds]
    return render(request, "notifications/unsubscribe.html", context)
