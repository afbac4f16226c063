"""Thin views for chat, reports and blocks."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.actions import ActionError
from games.views import render_match_fragment_or_redirect  # the board's answer to a POST from it
from moderation import actions
from moderation.models import ChatMessage


@require_POST
@login_required
def chat(request: HttpRequest, match_id: int) -> HttpResponse:
    error = ""
    try:
        actions.post_chat(match_id, request.user, request.POST.get("text", ""))
    except ActionError as problem:
        error = str(problem)
        if not request.htmx:
            messages.error(request, error)
    return render_match_fragment_or_redirect(request, match_id, error)


@require_POST
@login_required
def report(request: HttpRequest, message_id: int) -> HttpResponse:
    message = ChatMessage.objects.filter(pk=message_id).first()
    try:
        actions.report_message(message_id, request.user, reason=request.POST.get("reason", ""))
        messages.success(request, gettext("Thank you: a moderator will look at this message."))
    except ActionError as problem:
        messages.error(request, str(problem))
    return redirect("match", message.match_id) if message else redirect("home")


@require_POST
@login_required
def block(request: HttpRequest, username: str) -> HttpResponse:
    try:
        actions.block_user(request.user, username)
        messages.success(
            request, gettext("You blocked %(name)s: they cannot invite you or join your matches.") % {"name": username}
        )
    except ActionError as problem:
        messages.error(request, str(problem))
    target = request.POST.get("next", "")
    return HttpResponseRedirect(target) if _stays_on_site(request, target) else redirect("profile")


def _stays_on_site(request: HttpRequest, target: str) -> bool:
    """A path of this site: "//other.host/" starts with "/" too, and leaves it."""
    allowed = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return allowed and target.startswith("/") and "\x00" not in target


@require_POST
@login_required
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    actions.unblock_user(request.user, username)
    messages.success(request, gettext("You unblocked %(name)s.") % {"name": username})
    return redirect("profile")
