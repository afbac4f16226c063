import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts import actions
from accounts.actions import ERASE_AFTER_DAYS, AccountError
from accounts.forms import CloseAccountForm, ProfileForm
from accounts.models import DataExport


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("profile")
    context = {
        "form": form,
        "blocked": request.user.blocks.select_related("blocked"),
        "exports": DataExport.objects.filter(user=request.user, ready_at__isnull=False, expires__gt=timezone.now()),
        "export_waiting": DataExport.objects.filter(user=request.user, ready_at__isnull=True).exists(),
    }
    return render(request, "accounts/profile.html", context)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch on every page (a plain form, no JavaScript): Django's own set_language
    (the cookie, then back to `next`), and for a member the choice is kept on the account too."""
    response = i18n.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES) and hasattr(request.user, "language"):
        if request.user.language != language:
            request.user.language = language
            request.user.save(update_fields=["language"])
    return response


def privacy(request: HttpRequest) -> HttpResponse:
    """What the site keeps, why, for how long, and how to get or erase it: for everyone, signed in or not."""
    return render(request, "accounts/privacy.html")


@login_required
@require_POST
def data_export(request: HttpRequest) -> HttpResponse:
    """Ask for a copy of one's data: a task builds it and emails the link."""
    try:
        actions.do_request_data_export(request.user)
    except AccountError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("We are making a copy of your data; we will email you a link to it."))
    return redirect("profile")


@never_cache
@login_required
@require_GET
def data_export_download(request: HttpRequest, token: str) -> HttpResponse:
    """The copy, for its own player only and until it expires; reading it changes nothing."""
    export = get_object_or_404(
        DataExport, token=token, user=request.user, ready_at__isnull=False, expires__gt=timezone.now()
    )
    response = HttpResponse(
        json.dumps(export.archive, indent=2, ensure_ascii=False), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="dizzysite-data-{export.created:%Y-%m-%d}.json"'
    return response


@login_required
def close_account(request: HttpRequest) -> HttpResponse:
    """Close one's account, confirmed by the password; signed out everywhere at once."""
    form = CloseAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            actions.do_close_account(request.user, form.cleaned_data["password"])
        except AccountError as error:
            form.add_error("password", str(error))
        else:
            logout(request)
            messages.success(request, _("Your account is closed. Goodbye, and thank you for playing."))
            return redirect("/")
    return render(request, "accounts/close.html", {"form": form, "days": ERASE_AFTER_DAYS})
