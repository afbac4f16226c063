"""The API settings page (tokens, calendar feed, bot account) and the calendar feed itself."""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from api import calendar as ical
from api.models import SCOPES, ApiToken, CalendarFeed, scopes_for
from games.models import Seat

MAX_TOKENS = 20


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=60,
        help_text=gettext_lazy("What the token is for, e.g. “my bot on the laptop”."),
    )
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("What it may do"),
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Each endpoint needs one of these: give a token only what it needs."),
    )

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        offered = scopes_for(user)  # a bot account plays with "bot", a person with "play"
        self.fields["scopes"].choices = [(name, label) for name, label in SCOPES if name in offered]
        self.fields["scopes"].initial = offered


@never_cache  # the new token is on this page once: keep it out of caches
@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.user, request.POST if request.method == "POST" else None)
    raw = ""
    if request.method == "POST" and form.is_valid():
        if ApiToken.objects.live().filter(user=request.user).count() >= MAX_TOKENS:
            text = ngettext(
                "You have %(count)d token; revoke it first.", "You have %(count)d tokens; revoke one first.", MAX_TOKENS
            )
            form.add_error(None, text % {"count": MAX_TOKENS})
        else:
            _token, raw = ApiToken.issue(request.user, form.cleaned_data["name"], form.cleaned_data["scopes"])
            form = TokenForm(request.user)
    feed = CalendarFeed.for_user(request.user)
    context = {
        "form": form,
        "raw": raw,
        "tokens": ApiToken.objects.filter(user=request.user),
        "calendar_url": request.build_absolute_uri(reverse("api_calendar", args=[feed.token])),
        "can_become_bot": not request.user.is_bot and not Seat.objects.filter(user=request.user).exists(),
    }
    return render(request, "api/tokens.html", context, status=400 if form.errors else 200)


@require_POST
@login_required
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    token.revoke()
    messages.success(request, gettext("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("api_tokens")


@require_POST
@login_required
def regenerate_calendar(request: HttpRequest) -> HttpResponse:
    CalendarFeed.for_user(request.user).regenerate()
    messages.success(request, gettext("Your calendar has a new address; the old one no longer works."))
    return redirect("api_tokens")


@require_POST
@login_required
def become_bot(request: HttpRequest) -> HttpResponse:
    """A fresh account (never seated) may become a bot account: from then on it plays through the API only."""
    user = request.user
    if user.is_bot or Seat.objects.filter(user=user).exists():
        messages.error(request, gettext("Only an account that has never played can become a bot account."))
    else:
        get_user_model().objects.filter(pk=user.pk).update(is_bot=True)
        ApiToken.play_becomes_bot(user)  # its tokens now play as a bot account's (the scopes)
        messages.success(request, gettext("This is now a bot account: it plays through the API only."))
    return redirect("api_tokens")


TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def calendar(request: HttpRequest, token: str) -> HttpResponse:
    if not TOKEN_SHAPE.fullmatch(token):  # nothing odd (NUL, huge) reaches the database
        raise Http404("No such calendar.")
    feed = CalendarFeed.objects.select_related("user").filter(token=token).first()
    if feed is None or not feed.user.is_active:
        raise Http404("No such calendar.")
    response = HttpResponse(ical.build(feed.user), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response
