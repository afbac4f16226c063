"""Thin views: profiles, leaderboards, replays, records and rematches."""

from __future__ import annotations

import json
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.models import User
from games.actions import ActionError
from games.engines.registry import GAMES, get_bots
from games.models import Match, Seat
from ratings import presenters
from ratings.models import PROVISIONAL_SIGMA, Pool, Rating
from ratings.rematch import do_rematch
from ratings.replay import build_record
from ratings.replay_page import replay_page

LEADERBOARD_PAGE = 25
ACTIVE_DAYS = 90


# Every end makes everything public (ALL-3): a finished match (by the rules or adjudicated) and an
# aborted one that had started. One that never started (aborted or cancelled in the lobby) has no moves.
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.CANCELLED)


def _ended_match(match_id: int) -> Match:
    """Only an ended match that was played has a replay and a record; a running one is a 404."""
    queryset = Match.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    return get_object_or_404(queryset.exclude(seed=""), pk=match_id, status__in=ENDED, started__isnull=False)


# A rating's chart and its table are 600 values: drawn once and kept until the rating's next match
# (its match count is in the key), an hour at most.
CHART_SECONDS = 3600


def rating_charts(player: User, ratings: list[presenters.RatingInfo]) -> dict[tuple[str, str], str]:
    """Each rating's drawn chart (ratings/_chart.html) by (game, pool), read from the cache in one
    round trip; only the missing are drawn, and only they read their rating's history."""
    language = translation.get_language()
    keys = {f"rating-chart:{player.pk}:{r.game}:{r.pool}:{r.matches}:{language}": r for r in ratings}
    charts = cache.get_many(list(keys))
    drawn = {
        key: render_to_string("ratings/_chart.html", {"r": r, "chart": r.chart}, using="jinja2") if r.chart else ""
        for key, r in keys.items()
        if key not in charts
    }
    cache.set_many(drawn, CHART_SECONDS)
    charts.update(drawn)
    return {(r.game, r.pool): mark_safe(charts[key]) for key, r in keys.items()}


def _player(username: str) -> User:
    if "\x00" in username:  # PostgreSQL cannot even compare it: nobody has that name
        raise Http404
    return get_object_or_404(User, username=username)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    if player.profile_hidden and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    total, per_game = presenters.records(player)
    ratings = presenters.ratings_of(player)
    context = {
        "player": player,
        "ratings": ratings,
        "charts": rating_charts(player, ratings),
        "record": total,
        "per_game": [(GAMES[slug], per_game[slug]) for slug in GAMES if per_game.get(slug) and per_game[slug].played],
        "recent": presenters.recent_matches(player),
        "h2h": presenters.head_to_head(player, request.user),
        "games": GAMES,
        "is_me": request.user.is_authenticated and request.user.pk == player.pk,
        **presenters.profile_parts(player),  # the player's tournaments and titles (tournaments/apps.py)
    }
    # Jinja2, as the replay: Django's template language took most of the page's time.
    return render(request, "ratings/profile.html", context, using="jinja2")


# A page of a player's finished matches (keyset: ?before=<match id>, ?game=<slug>).
PLAYER_MATCHES_PAGE = 25


def player_matches(request: HttpRequest, username: str) -> HttpResponse:
    """Every finished match of a player, newest first, a page at a time, as on the profile's recent list."""
    player = _player(username)
    if player.profile_hidden and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    before, game = request.GET.get("before", ""), request.GET.get("game", "")
    if before and (not before.isdigit() or len(before) > 18):
        return HttpResponseBadRequest("before: a match number")
    if game and game not in GAMES:
        return HttpResponseBadRequest("game: " + ", ".join(GAMES))
    found = presenters.recent_matches(player, PLAYER_MATCHES_PAGE + 1, int(before) if before else None, game)
    matches = found[:PLAYER_MATCHES_PAGE]
    context = {
        "player": player,
        "matches": matches,
        "game": game,
        "games": GAMES,
        "newer": bool(before),
        "older": matches[-1].id if len(found) > PLAYER_MATCHES_PAGE else None,
    }
    return render(request, "ratings/player_matches.html", context, using="jinja2")


def leaderboards(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/leaderboards.html", {"games": GAMES})


class CountedPaginator(Paginator):
    """A Paginator told its count: the leaderboard counts its players together with another figure."""

    def __init__(self, object_list, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self.__dict__["count"] = count  # Paginator.count is a cached_property: this is its value


# The counts behind "Page X of Y" read every active rating of the game (33,000 at a million matches,
# 150 ms and more): they are kept a minute, so a reader paging through pays for them once.
COUNTS_SECONDS = 60


def active_counts(active, game: str, pool: str) -> dict[str, int]:
    """The settled and provisional players among `active`, in one pass, at most a minute old."""
    key = f"leaderboard-counts:{game}:{pool}"
    counts = cache.get(key)
    if counts is None:
        counts = active.aggregate(
            settled=Count("pk", filter=Q(sigma__lte=PROVISIONAL_SIGMA)),
            provisional=Count("pk", filter=Q(sigma__gt=PROVISIONAL_SIGMA)),
        )
        cache.set(key, counts, COUNTS_SECONDS)
    return counts


def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES:
        raise Http404
    pool = request.GET.get("pool") if request.GET.get("pool") in Pool.values else Pool.PEOPLE
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    active = Rating.objects.filter(
        game=game, pool=pool, user__isnull=False, user__is_active=True, last_played__gte=since
    )
    # As lichess does, a rating that has not settled (provisional: sigma above PROVISIONAL_SIGMA) is
    # not ranked beside settled ones unless the reader asks for it (?provisional=1, a plain link).
    show_provisional = request.GET.get("provisional") == "1"
    counts = active_counts(active, game, pool)
    # Settled: the rest of the active ratings, as a plain condition ("not in the provisional
    # ones" was a subquery hashing every rating of the game on each page).
    players = (active if show_provisional else active.filter(sigma__lte=PROVISIONAL_SIGMA)).select_related("user")
    players = players.order_by("-mu", "sigma", "user__username")
    total = counts["settled"] + counts["provisional"] if show_provisional else counts["settled"]
    page = CountedPaginator(players, LEADERBOARD_PAGE, count=total).get_page(request.GET.get("page"))
    bots = Rating.objects.filter(game=game, pool=Pool.BOTS, user__isnull=True).order_by("-mu")
    context = {
        "game": game,
        "game_name": GAMES[game],
        "pool": pool,
        "pools": Pool.choices,
        "page": page,
        "bots": bots,
        "active_days": ACTIVE_DAYS,
        "provisional_sigma": PROVISIONAL_SIGMA,
        "show_provisional": show_provisional,
        "provisional_count": counts["provisional"],
        "bot_levels": list(get_bots(game)),
    }
    return render(request, "ratings/leaderboard.html", context)


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    page = replay_page(_ended_match(match_id), request.GET.get("at"), request.GET.get("seat"), request.user)
    # Jinja2, as the boards: a finished match's every move is a row (560 in a Dizzy Duo Battle).
    return render(request, "ratings/replay.html", {"page": page}, using="jinja2")


def record(request: HttpRequest, match_id: int) -> HttpResponse:
    """The ended match as a signed JSON file: `manage.py replay FILE` checks it, rebuilds it and its result."""
    data = build_record(_ended_match(match_id))
    response = HttpResponse(json.dumps(data, indent=1, ensure_ascii=False), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="dizzysite-match-{match_id}.json"'
    return response


@require_POST
@login_required
def rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = do_rematch(match_id, request.user)
    except ActionError as error:
        messages.error(request, str(error))
        return redirect("match", match_id)
    messages.success(request, gettext("A rematch is set up: the other players are invited."))
    return redirect(match)
