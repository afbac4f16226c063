"""Thin views: find the match, call one action, render what the viewer may see."""

from __future__ import annotations

import time
from collections import defaultdict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Exists, OuterRef, Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from dizzysite.dates import PageDates
from games import actions
from games.board_cache import drawn_board
from games.clock import is_live
from games.engines.registry import available_engines, get_spec
from games.forms import FillSeatForm, MatchForm, challenge_initial
from games.hints import hint_for
from games.models import (
    GAME_NAMES,
    SEAT_AND_USER_NAME_FIELDS,
    USER_NAME_FIELDS,
    Match,
    Seat,
    others_names,
    seat_names,
)
from games.pictures import rules_pictures
from games.presence import mark_watching
from games.presenters import board_context, history_page, player_view
from games.reads import held_seat, note_text


def _match_queryset():
    return Match.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))


def _get_match(match_id: int) -> Match:
    return get_object_or_404(_match_queryset(), pk=match_id)


# What jinja2_templates/games/_match_list.html shows of a match (the dashboard's lists).
LIST_MATCH_FIELDS = ["id", "game", "status", "started", "end_reason", "end_reason_words"]
LIST_SEAT_FIELDS = [
    "id",
    "match",
    "user",
    "accepted",
    "to_act",
    "handed_to_bot",
    *(f"match__{f}" for f in LIST_MATCH_FIELDS),
]


# Each of the dashboard's lists of running and open matches shows this many, newest first, with a
# "more" link (?<list>_before=<match id>, a keyset): a player in 200 running matches gets a page of
# the same size as one in 20 (rendering 220 rows was most of the page's time).
DASHBOARD_PAGE = 20
DASHBOARD_LISTS = ("your_turn", "handed", "waiting", "invitations", "lobby")
STARTED_ON = "DATE_FORMAT"  # a row's start: the site's date style (dizzysite/formats), a day alone


def _list_of(seat: tuple[int, str, bool, bool, bool]) -> str:
    """Which of DASHBOARD_LISTS a (match id, status, to_act, handed_to_bot, accepted) seat is in."""
    _, status, to_act, handed, accepted = seat
    if status == Match.Status.ACTIVE:
        return "handed" if handed else ("your_turn" if to_act else "waiting")
    return "lobby" if accepted else "invitations"


def _dashboard_lists(request: HttpRequest) -> tuple[dict[str, list[Match]], dict[str, int], int]:
    """The lists of running and open matches (a page each), the match id each "more" link starts
    below, and how many wait for the player's move. The seats are read as plain tuples (a few hundred
    at most); only the shown matches are loaded."""
    seats = (
        Seat.objects.filter(
            user=request.user, match_over=False, match__status__in=[Match.Status.ACTIVE, Match.Status.OPEN]
        )
        .order_by("-match_id")
        .values_list("match_id", "match__status", "to_act", "handed_to_bot", "accepted")
    )
    ids: dict[str, list[int]] = {name: [] for name in DASHBOARD_LISTS}
    for seat in seats:
        ids[_list_of(seat)].append(seat[0])
    turn_count = len(ids["your_turn"])
    more = {}
    for name, found in ids.items():
        before = request.GET.get(f"{name}_before", "")
        if before.isdigit() and len(before) < 19:
            found = [pk for pk in found if pk < int(before)]
        if len(found) > DASHBOARD_PAGE:
            more[name] = found[DASHBOARD_PAGE - 1]
        ids[name] = found[:DASHBOARD_PAGE]
    shown = _shown_matches([pk for found in ids.values() for pk in found], request.user.pk)
    return {name: [shown[pk] for pk in found] for name, found in ids.items()}, more, turn_count


def _shown_matches(pks: list[int], user_id: int) -> dict[int, Match]:
    """The shown matches by id, each with the names of the seats it is played against (`against`)
    and of the player who made it (`invited_by`, for an invitation), read from one query of their
    seats with their match and user: the same one query the matches alone took, where prefetching
    the seats took a second."""
    seats = (
        Seat.objects.filter(match_id__in=pks)
        .select_related("match", "user")
        .only(*SEAT_AND_USER_NAME_FIELDS, *(f"match__{f}" for f in (*LIST_MATCH_FIELDS, "created_by")))
    )
    shown: dict[int, Match] = {}
    tables: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats if pks else []:
        shown.setdefault(seat.match_id, seat.match)
        tables[seat.match_id].append(seat)
    for pk, match in shown.items():
        names = seat_names(tables[pk])
        match.against = others_names(tables[pk], user_id, names=names)
        maker = [seat for seat in tables[pk] if seat.user_id == match.created_by_id != user_id]
        match.invited_by = others_names(maker, user_id, names=names)[0] if maker else ""
    return shown


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/landing.html", {"games": GAME_NAMES})
    # A player with thousands of finished matches reads only the running and open ones and
    # the newest finished, and only the columns the lists show (never the state).
    lists, more, turn_count = _dashboard_lists(request)
    mine = Seat.objects.filter(user=request.user).select_related("match").only(*LIST_SEAT_FIELDS)
    ended = mine.filter(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED]).order_by("-match_id")
    ended = ended.only(*LIST_SEAT_FIELDS, "match__result")  # a finished row says who won
    finished = [seat.match for seat in ended[:20]]
    # end_reason_text names the seats: one query for the twenty, not one each, reading only what a
    # seat's public name needs (a user row is wide: preferences, settings).
    names = Seat.objects.select_related("user").only(*SEAT_AND_USER_NAME_FIELDS)
    prefetch_related_objects(finished, Prefetch("seats", queryset=names))
    # An empty seat as EXISTS, not a join: the join needed DISTINCT, a sort of the open matches' rows.
    empty_seat = Seat.objects.filter(match=OuterRef("pk"), user__isnull=True, bot_level="")
    open_matches = list(
        Match.objects.filter(Exists(empty_seat), status=Match.Status.OPEN)
        .exclude(seats__user=request.user)
        .select_related("created_by")
        .only(*LIST_MATCH_FIELDS, "options", "time_preset", *(f"created_by__{f}" for f in USER_NAME_FIELDS))[:20]
    )
    prefetch_related_objects(open_matches, Prefetch("seats", queryset=Seat.objects.only("match", "user", "bot_level")))
    context = {
        **lists,
        "more": more,
        "your_turn_count": turn_count,
        "finished": finished,
        "open_matches": open_matches,
        # A date a row, the format parsed once a page: naturaltime's "3 days, 4 hours ago" cost a tenth
        # of the page; the browser says it as "3 days ago" (static/js/site.js).
        "started_on": PageDates(formats.get_format(STARTED_ON)),
    }
    # Jinja2, as the boards: Django's template language drew these 60 rows in most of the page's time.
    return render(request, "games/dashboard.html", context, using="jinja2")


@login_required
def new_match(request: HttpRequest) -> HttpResponse:
    engines = available_engines()
    slug = request.GET.get("game") or request.POST.get("game")
    if slug not in engines:
        return render(request, "games/new_match_pick.html", {"engines": engines})
    engine = engines[slug]
    form = MatchForm(engine, request.POST or None, initial=challenge_initial(request.GET, engine))
    if request.method == "POST" and form.is_valid():
        try:
            match = actions.create_match(
                request.user,
                slug,
                form.cleaned_data["seats"],
                options=form.cleaned_data["options"],
                time_preset=form.cleaned_data["time_preset"],
                custom_clock=form.cleaned_data.get("custom_clock"),
                weekend_pause=form.cleaned_data["weekend_pause"],
                spectators_read_chat=form.cleaned_data["spectators_read_chat"],
                rated=form.cleaned_data["rated"],
            )
        except actions.ActionError as error:
            form.add_error(None, str(error))
        else:
            return redirect(match)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/new_match.html", {"form": form, "engine": engine, "slug": slug}, status=status)


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board page, or with HTMX just its board fragment; an unchanged poll costs one query."""
    if request.user.is_authenticated:
        mark_watching(match_id, request.user.pk)
    since = request.GET.get("since")
    if since is not None and request.htmx:
        revision = Match.objects.filter(pk=match_id).values_list("revision", flat=True).first()
        if revision is None:
            raise Http404
        if str(revision) == since:
            return HttpResponse(status=204)
    match = _get_match(match_id)
    return _render_match(request, match)


def turn_count(request: HttpRequest) -> HttpResponse:
    """The navigation's "your turn" count, polled by HTMX."""
    return render(request, "games/_turn_count.html")


LIVE_POLL_SECONDS = 2  # a live clock's board (games.clock.LIVE_TURN_SECONDS) polls this often


def match_context(request: HttpRequest, match: Match, error: str = "") -> dict:
    """The board templates' whole context: the viewer's PlayerView and nothing else of the match."""
    select = request.GET.get("select", "")[:64]  # a selection the board builds up (cells, a piece)
    pv = player_view(match, request.user, {"select": select})
    hint = hint_for(match, list(match.seats.all()), pv, asked=request.GET.get("hint") == "1")
    if hint.select and not select:  # the suggested move's button shows once its piece is picked
        select = hint.select
        pv.board = board_context(match.game, pv, {"select": select})
    spec = get_spec(match.game)
    live = is_live(match.turn_seconds)
    return {
        "pv": pv,
        "hint": hint,
        "error": error,
        "select": select,
        "poll_seconds": LIVE_POLL_SECONDS if live else settings.DIZZY_POLL_SECONDS,
        "turn_sound": live and request.user.is_authenticated and request.user.turn_sound,  # static/js/clock.js
        "now_ms": int(time.time() * 1000),  # the server's clock, for the ticking clocks (static/js/clock.js)
        "stylesheet": spec.stylesheet,
        "board_html": drawn_board(pv, select, spec.board_template) if pv.board is not None else "",
    }


def _render_match(request: HttpRequest, match: Match, error: str = "", status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, "games/_board.html", match_context(request, match, error), status=status, using="jinja2")
    # The whole page adds the viewer's own notes (outside the board, so that no poll redraws them).
    context = {**match_context(request, match, error), "notes": note_text(match, request.user)}
    return render(request, "games/match.html", context, status=status, using="jinja2")


def render_match_fragment_or_redirect(request: HttpRequest, match_id: int, error: str = "") -> HttpResponse:
    """After a POST from the board: HTMX gets the fresh fragment, a plain form a redirect."""
    if request.htmx:
        return _render_match(request, _get_match(match_id), error, 400 if error else 200)
    return redirect("match", match_id)


@require_POST
def move(request: HttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("match", args=[match_id]))
    if request.user.is_bot:  # a bot account plays through the API only
        return _render_match(request, _get_match(match_id), "A bot account plays through the API only.", 403)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    try:
        match = actions.do_move(match_id, request.user, version, request.POST.get("move", ""))
    except actions.ActionError as error:
        match = get_object_or_404(_match_queryset(), pk=match_id)
        return _render_match(request, match, str(error), error.status)
    if request.htmx:
        return _render_match(request, match)  # the seats came with the move (fresh, in its transaction)
    return redirect("match", match_id)


END_OWN_PART = {"resign": actions.do_resign, "abort": actions.do_player_abort}


def _end_own_part(request: HttpRequest, match_id: int, what: str) -> HttpResponse:
    """Resign or abort (rulings SITE-RESIGN, SITE-ABORT): GET asks to confirm, only POST does it."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse(what, args=[match_id]))
    match = _get_match(match_id)
    error, status = "", 200
    if request.user.is_bot:  # a bot account plays through the API only
        error, status = _("A bot account plays through the API only."), 403
    elif request.method == "POST":
        try:
            END_OWN_PART[what](match_id, request.user)
        except actions.ActionError as refused:
            error, status = str(refused), refused.status
            match = _get_match(match_id)
        else:
            messages.success(request, _("You resigned.") if what == "resign" else _("The match is aborted."))
            return redirect("match", match_id)
    pv = player_view(match, request.user)
    allowed = pv.can_abort if what == "abort" else pv.can_resign
    if not allowed and not error and held_seat(match.seats.all(), request.user) is None:
        error, status = _("You have no seat in this match."), 403
    elif not allowed and not error:
        error, status = _("You cannot do that in this match now."), 409
    context = {"pv": pv, "what": what, "allowed": allowed and status < 400, "error": error}
    return render(request, "games/end_own_part.html", context, status=status, using="jinja2")


@require_http_methods(["GET", "POST"])
def resign(request: HttpRequest, match_id: int) -> HttpResponse:
    return _end_own_part(request, match_id, "resign")


@require_http_methods(["GET", "POST"])
def abort(request: HttpRequest, match_id: int) -> HttpResponse:
    return _end_own_part(request, match_id, "abort")


@require_POST
def save_notes(request: HttpRequest, match_id: int) -> HttpResponse:
    """The player's private notes: the board's script saves as they type (JSON back), a plain form
    with its Save button comes back to the board."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("match", args=[match_id]))
    get_object_or_404(Match.objects.only("pk"), pk=match_id)
    by_script = "application/json" in request.headers.get("Accept", "")
    try:
        note = actions.do_save_note(match_id, request.user, request.POST.get("text", ""))
    except actions.ActionError as error:
        if by_script:
            return JsonResponse({"detail": str(error)}, status=error.status)
        return _render_match(request, _get_match(match_id), str(error), error.status)
    if by_script:
        return JsonResponse({"saved": note.updated.isoformat()})
    messages.success(request, _("Your notes are saved."))
    return redirect(reverse("match", args=[match_id]) + "#notes")


def _lobby_action(request: HttpRequest, match_id: int, action, success: str) -> HttpResponse:
    try:
        action(match_id, request.user)
    except actions.ActionError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success)
    return redirect("match", match_id)


@require_POST
@login_required
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    return _lobby_action(request, match_id, actions.do_join, _("You have a seat in this match."))


@require_POST
@login_required
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        actions.do_leave(match_id, request.user)
    except actions.ActionError as error:
        messages.error(request, str(error))
        return redirect("match", match_id)
    messages.success(request, _("You left the match."))
    return redirect("home")


@require_POST
@login_required
def cancel(request: HttpRequest, match_id: int) -> HttpResponse:
    return _lobby_action(request, match_id, actions.do_cancel, _("The match is cancelled."))


@require_POST
@login_required
def fill_seat(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    form = FillSeatForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose open, a bot or a player to invite."))
        return redirect("match", match_id)
    try:
        actions.do_fill_seat(match_id, request.user, seat_number, form.spec())
    except actions.ActionError as error:
        messages.error(request, str(error))
    return redirect("match", match_id)


def history(request: HttpRequest, match_id: int) -> HttpResponse:
    """The whole move history, filtered for the viewer like the board."""
    page = history_page(_get_match(match_id), request.user)
    # Jinja2, as the replay: a finished match's every move is a row.
    return render(request, "games/history.html", {"page": page}, using="jinja2")


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in GAME_NAMES:
        raise Http404
    # The page in the viewer's language where it is written (games/rules/nl/<slug>.html), else English.
    language = translation.get_language() or settings.LANGUAGE_CODE
    names = [f"games/rules/{language}/{slug}.html", f"games/rules/{slug}.html"]
    context = {"game_name": GAME_NAMES[slug], "slug": slug, "pictures": rules_pictures(slug)}
    return render(request, names, context)


def games_list(request: HttpRequest) -> HttpResponse:
    return render(request, "games/games.html", {"engines": available_engines(), "games": GAME_NAMES})


@require_POST
@login_required
def vacation(request: HttpRequest) -> HttpResponse:
    """Switch the vacation on (pausing the clocks of every slow match) or off; the switch itself is
    on the settings page (games/templatetags/vacation.py draws it there)."""
    try:
        if request.POST.get("on") == "1":
            actions.start_vacation(request.user)
            messages.success(request, _("Your vacation has started: your clocks in slow matches are paused."))
        else:
            actions.end_vacation(request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
    except actions.ActionError as error:
        messages.error(request, str(error))
    return redirect("profile")
