"""Devices (subscribe, remove), the inbox and its bell, the manifest and the service worker."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from notifications.models import Notification
from push.devices import BadSubscription, clean_subscription, device_label
from push.keys import vapid_keys
from push.models import PushSubscription

INBOX_SIZE = 50


def vapid_key(request: HttpRequest) -> JsonResponse:
    """The public key a browser subscribes with (applicationServerKey); 404 while push is off."""
    keys = vapid_keys()
    if keys is None:
        raise Http404("push is switched off")
    return JsonResponse({"key": keys.public_key})


@require_POST
@login_required
def subscribe(request: HttpRequest) -> JsonResponse:
    """Save this browser's subscription (PushSubscription.toJSON()); the same endpoint again updates it."""
    try:
        endpoint, p256dh, auth = clean_subscription(json.loads(request.body or b"null"))
    except (ValueError, BadSubscription) as error:
        return JsonResponse({"detail": str(error) if isinstance(error, BadSubscription) else "not JSON"}, status=400)
    label = device_label(request.headers.get("User-Agent", ""))
    # An endpoint another account holds is refused, never moved: only that account (its session on
    # the settings page) can remove it; then this account may register it.
    if PushSubscription.objects.filter(endpoint=endpoint).exclude(user=request.user).exists():
        return JsonResponse({"detail": held_elsewhere()}, status=409)
    try:
        with transaction.atomic():
            device, created = PushSubscription.objects.update_or_create(
                endpoint=endpoint,
                user=request.user,
                defaults={"p256dh": p256dh, "auth": auth, "label": label},
            )
    except IntegrityError:  # another account registered it meanwhile
        return JsonResponse({"detail": held_elsewhere()}, status=409)
    return JsonResponse({"id": device.pk, "label": device.name}, status=201 if created else 200)


def held_elsewhere() -> str:
    return gettext(
        "This device already gets notifications for another account. Sign in to that account and remove "
        "the device in its settings first."
    )


@require_POST
@login_required
def remove_device(request: HttpRequest, device_id: int) -> HttpResponse:
    device = get_object_or_404(PushSubscription, pk=device_id, user=request.user)
    device.delete()
    messages.success(request, gettext("%(device)s gets no more notifications.") % {"device": device.name})
    return redirect("profile")


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """The latest notifications, newest first; those unread until now are marked new, and read."""
    rows = list(Notification.objects.filter(recipient=request.user).select_related("match")[:INBOX_SIZE])
    unread = [row.pk for row in rows if row.read_at is None]
    if unread:
        Notification.objects.filter(pk__in=unread).update(read_at=timezone.now())
    return render(request, "push/inbox.html", {"rows": rows, "unread": set(unread)})


@login_required
def inbox_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """A tapped push or an inbox link: mark it read and go to its match."""
    row = get_object_or_404(Notification.objects.select_related("match"), pk=notification_id, recipient=request.user)
    if row.read_at is None:
        Notification.objects.filter(pk=row.pk).update(read_at=timezone.now())
    return redirect(row.match.get_absolute_url())


def bell(request: HttpRequest) -> HttpResponse:
    """The header's unread count, loaded by HTMX after the page (the page itself runs no query for it)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    count = Notification.objects.filter(recipient=request.user, read_at__isnull=True).count()
    return render(request, "push/_bell.html", {"count": count})


@cache_control(max_age=3600)  # in the reader's language: LocaleMiddleware adds Vary: Accept-Language
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to install the site on its home screen."""
    icons = [
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    body = {
        "id": "/",
        "name": "Dizzysite",
        "short_name": "Dizzysite",
        "lang": translation.get_language(),
        "description": gettext("Tabletop games played by turns over days, against friends or bots."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f4ef",
        "theme_color": "#1d2330",
        "icons": icons,
    }
    return HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")


@cache_control(no_cache=True)  # browsers look for a new worker on each visit
def service_worker(request: HttpRequest) -> HttpResponse:
    response = render(request, "push/sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
