"""Devices (subscribe, remove), the inbox and its bell, the manifest and the service worker."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import BadRequest
from django.db import IntegrityError, transaction
from django.db.models import Max, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, ngettext
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from dizzysite.dates import PageDates
from games.models import LARGE_FIELDS, Match
from notifications.models import MatchMute, Notification
from push.devices import BadSubscription, clean_subscription, device_label
from push.keys import vapid_keys
from push.models import PushSubscription
from push.payloads import SEEN_SALT

INBOX_SIZE = 50
# A row's time in the site's one date style (dizzysite/formats), in the reader's language and zone:
# "Mon 29 Nov, 19:17 CET", "ma 29 nov, 19:17 CET".
INBOX_TIME = "SHORT_DATETIME_FORMAT"
# What an inbox row shows and links to (jinja2_templates/push/inbox.html, Notification.subject_name and
# get_absolute_url): the other columns of the row and its match, tournament or championship are not read.
INBOX_ROW_FIELDS = [
    "kind",
    "created",
    "read_at",
    "match__game",
    "tournament__name",
    "championship__game",
]


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


def inbox_page(request: HttpRequest) -> int | None:
    """The `before` of a keyset page (rows older than that id), from the query or a form; None: the newest."""
    raw = request.POST.get("before") if request.method == "POST" else request.GET.get("before")
    if raw in (None, ""):
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise BadRequest("before: an inbox entry's number")
    return int(raw)


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """The player's notifications, newest first, INBOX_SIZE a page (keyset: ?before=<id>). Showing
    them changes nothing (a prefetch or a mail scanner would too): reading is a POST."""
    try:
        before = inbox_page(request)
    except BadRequest as error:
        return HttpResponseBadRequest(str(error))
    rows = (
        Notification.objects.filter(recipient=request.user, deleted_at__isnull=True)
        .select_related("match", "tournament", "championship")
        .only(*INBOX_ROW_FIELDS)  # a row names its match, never shows it (50 rows a page)
    )
    if before is not None:
        rows = rows.filter(pk__lt=before)
    page = list(rows.order_by("-pk")[: INBOX_SIZE + 1])
    rows, older = page[:INBOX_SIZE], len(page) > INBOX_SIZE
    unread = Notification.objects.filter(recipient=request.user, read_at__isnull=True).count()
    muted = list(
        MatchMute.objects.filter(user=request.user)
        .select_related("match")
        .defer(*(f"match__{field}" for field in LARGE_FIELDS))
    )
    context = {
        "rows": rows,
        "before": before,
        "older": rows[-1].pk if older else None,
        "unread": unread,
        "newest": Notification.objects.filter(recipient=request.user).aggregate(newest=Max("pk"))["newest"],
        "muted": muted,
        "muted_ids": {mute.match_id for mute in muted},
        "row_time": PageDates(formats.get_format(INBOX_TIME)),
    }
    # Jinja2, like the board pages: the Django template's rendering was most of the page's time.
    return render(request, "push/inbox.html", context, using="jinja2")


def back_to_inbox(request: HttpRequest) -> HttpResponse:
    """After a form: the same page of the inbox."""
    try:
        before = inbox_page(request)
    except BadRequest:
        before = None
    return redirect(reverse("inbox") + (f"?before={before}" if before is not None else ""))


@login_required
def inbox_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """The address older pushes carry: to the match, changing nothing (a GET; reading is a POST)."""
    row = get_object_or_404(
        Notification.objects.select_related("match", "tournament", "championship"),
        pk=notification_id,
        recipient=request.user,
    )
    return redirect(row.get_absolute_url())


@require_POST
@login_required
def inbox_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    row = get_object_or_404(Notification, pk=notification_id, recipient=request.user)
    Notification.objects.filter(pk=row.pk, read_at__isnull=True).update(read_at=timezone.now())
    return back_to_inbox(request)


@require_POST
@login_required
def inbox_read_all(request: HttpRequest) -> HttpResponse:
    """Every unread entry up to the newest the page showed (`upto`; one that came since stays new)."""
    raw = request.POST.get("upto", "")
    if raw and (not raw.isdigit() or len(raw) > 18):
        return HttpResponseBadRequest("upto: an inbox entry's number")
    rows = Notification.objects.filter(recipient=request.user, read_at__isnull=True)
    if raw:
        rows = rows.filter(pk__lte=int(raw))
    count = rows.update(read_at=timezone.now())
    messages.success(
        request,
        ngettext("%(count)d entry marked read.", "%(count)d entries marked read.", count) % {"count": count},
    )
    return back_to_inbox(request)


@require_POST
@login_required
def inbox_delete(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Gone from the inbox; the row stays (marked), so that a repeated task does not write it again."""
    row = get_object_or_404(Notification, pk=notification_id, recipient=request.user, deleted_at__isnull=True)
    now = timezone.now()
    Notification.objects.filter(pk=row.pk).update(deleted_at=now, read_at=Coalesce("read_at", Value(now)))
    return back_to_inbox(request)


@csrf_exempt  # the service worker posts without the page's CSRF token: the signed token is the proof
@require_POST
def inbox_seen(request: HttpRequest, token: str) -> HttpResponse:
    """A tapped push: its service worker marks that entry read (a POST, so no prefetch does)."""
    try:
        value = signing.Signer(salt=SEEN_SALT).unsign(token)
    except signing.BadSignature:
        return HttpResponseBadRequest("not a token of this site")
    if not value.isdigit():
        return HttpResponseBadRequest("not a token of this site")
    notification_id = int(value)
    Notification.objects.filter(pk=notification_id, read_at__isnull=True).update(read_at=timezone.now())
    return HttpResponse(status=204)


def _own_match(request: HttpRequest) -> Match | None:
    raw = request.POST.get("match", "")
    if not raw.isdigit() or len(raw) > 18:
        return None
    return Match.objects.filter(pk=int(raw), seats__user=request.user).distinct().first()


@require_POST
@login_required
def inbox_mute(request: HttpRequest) -> HttpResponse:
    """Mute one of the player's matches: no inbox entry, email or push about it until unmuted."""
    match = _own_match(request)
    if match is None:
        return HttpResponseBadRequest("match: one of your matches")
    try:
        with transaction.atomic():
            MatchMute.objects.get_or_create(user=request.user, match=match)
    except IntegrityError:
        pass  # a second click at the same moment: muted all the same
    messages.success(request, gettext("%(match)s is muted: you hear nothing more about it.") % {"match": _name(match)})
    return back_to_inbox(request)


@require_POST
@login_required
def inbox_unmute(request: HttpRequest) -> HttpResponse:
    match = _own_match(request)
    if match is None:
        return HttpResponseBadRequest("match: one of your matches")
    MatchMute.objects.filter(user=request.user, match=match).delete()
    messages.success(request, gettext("%(match)s is no longer muted.") % {"match": _name(match)})
    return back_to_inbox(request)


def _name(match: Match) -> str:
    return f"{match.game_name} #{match.pk}"


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
