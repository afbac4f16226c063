from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from accounts.models import User
from notifications.emails import read_unsubscribe_token
from notifications.models import ALWAYS_SENT, CHOICES, Kind, preference


class PreferencesForm(forms.Form):
    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in Kind:
            if kind in ALWAYS_SENT:
                continue
            self.fields[kind.value] = forms.ChoiceField(
                label=kind.label, choices=CHOICES, initial=preference(user, kind.value), widget=forms.RadioSelect
            )


@login_required
def email_preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        request.user.email_preferences = dict(form.cleaned_data)
        request.user.save(update_fields=["email_preferences"])
        messages.success(request, "Your email preferences are saved.")
        return redirect("email_preferences")
    return render(request, "notifications/preferences.html", {"form": form, "always": [k.label for k in ALWAYS_SENT]})


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
