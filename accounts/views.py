from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm


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
