"""Thin views of the tournaments: the list, a tournament's page, the organiser's form and page, join, leave."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games.engines.registry import GAMES, get_bots
from games.models import BOT_LEVELS
from tournaments import actions, championship_actions
from tournaments.forms import TournamentForm, option_key
from tournaments.models import Championship, Entry, Tournament
from tournaments.pairing import Standing
from tournaments.standings import (
    TableRead,
    compute_standings,
    crosstable,
    format_points,
    knockout_winners,
    read_tables,
    rounds_with_tables,
)

LIST_LIMIT = 50


def tournament_list(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    tournaments = Tournament.objects.select_related("season")  # a division's title names its season
    if game in GAMES:
        tournaments = tournaments.filter(game=game)
    else:
        game = ""
    sections = [
        (gettext("Upcoming"), tournaments.filter(status=Tournament.Status.OPEN).order_by("starts_at")),
        (gettext("Running"), tournaments.filter(status=Tournament.Status.RUNNING).order_by("starts_at")),
        (gettext("Finished"), tournaments.filter(status=Tournament.Status.FINISHED).order_by("-ended")),
    ]
    championships = Championship.objects.all() if not game else Championship.objects.filter(game=game)
    context = {
        "mine": my_tournaments(request.user),
        "championships": championships.order_by("game", "time_preset"),
        "sections": [(title, list(rows[:LIST_LIMIT])) for title, rows in sections],
        "games": GAMES,
        "game": game,
    }
    return render(request, "tournaments/list.html", context)


def my_tournaments(user) -> list[tuple[Tournament, Entry | None]]:
    """The reader's tournaments (entered or organised), newest first, with their entry (its place)."""
    if not user.is_authenticated:
        return []
    entries = {e.tournament_id: e for e in Entry.objects.filter(user=user)}
    rows = Tournament.objects.filter(Q(pk__in=entries) | Q(organiser=user)).select_related("season")
    rows = rows.order_by("-starts_at")[:LIST_LIMIT]
    return [(tournament, entries.get(tournament.pk)) for tournament in rows]


def tournament_page(request: HttpRequest, tournament_id: int, error: str = "", status: int = 200) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser", "season"), pk=tournament_id)
    rounds = rounds_with_tables(tournament)
    tables = read_tables(tournament, rounds)
    entries = {entry.pk: entry for entry in tournament.entries.select_related("user")}
    rows = [(row, entries[row.player]) for row in compute_standings(tournament, tables)]
    mine = None
    if request.user.is_authenticated:
        mine = next((entry for entry in entries.values() if entry.user_id == request.user.pk), None)
    is_open = tournament.status == Tournament.Status.OPEN
    winners = goes_on(tournament, tables, entries)
    context = {
        "tournament": tournament,
        "standings": [standing_line(row, entry) for row, entry in rows],
        "rounds": [
            (number, [(read, winners.get(read.table.pk)) for read in reads])
            for number, reads in sorted(tables.items(), reverse=True)
        ],
        "knockout": tournament.format == Tournament.Format.KNOCKOUT,
        "crosstable": crosstable(sorted(entries.values(), key=lambda e: (e.seed or 0, e.pk)), tables)
        if tournament.format == Tournament.Format.ROUND_ROBIN and tables
        else None,
        "mine": mine,
        "can_join": is_open and mine is None and may_enter(tournament, request.user),
        "organising": is_open and tournament.organiser_id == request.user.pk,
        "fewest_to_start": actions.fewest_to_start(tournament),
        "bot_levels": [(level, name) for level, name in BOT_LEVELS if level in get_bots(tournament.game)],
        "can_leave": mine is not None and (is_open or (tournament.status == Tournament.Status.RUNNING and mine.active)),
        "error": error,
        **next_round(tournament, len(entries)),
        "bracket": bracket(tournament, tables, winners, len(entries)),
    }
    return render(request, "tournaments/tournament.html", context, status=status)


def next_round(tournament: Tournament, entrants: int) -> dict[str, object]:
    """On a fixed schedule, when the running tournament's next round is paired (none after the last)."""
    number = tournament.current_round + 1
    if tournament.round_hours is None or tournament.status != Tournament.Status.RUNNING:
        return {}
    if number > actions.total_rounds(tournament, entrants):
        return {}
    return {"next_round_number": number, "next_round_due": tournament.round_due(number)}


def bracket(
    tournament: Tournament, tables: dict[int, list[TableRead]], winners: dict[int, Entry], entrants: int
) -> list[dict[str, object]]:
    """A knockout's bracket, drawn on the page: a column per round, final included, each with its
    matches in bracket order (round n + 1's match i is between the winners of round n's matches 2i - 1
    and 2i, tournaments.pairing.knockout_next_round); a match not paired yet is an empty slot."""
    if tournament.format != Tournament.Format.KNOCKOUT or not tables.get(1):
        return []
    total = actions.total_rounds(tournament, entrants)
    size = len(tables[1])
    columns = []
    for number in range(1, total + 1):
        reads = tables.get(number, [])
        slots = [reads[i] if i < len(reads) else None for i in range(max(1, size >> (number - 1)))]
        columns.append(
            {
                "name": round_name(number, total),
                "slots": [{"read": read, "winner": read and winners.get(read.table.pk)} for read in slots],
            }
        )
    return columns


def round_name(number: int, total: int) -> str:
    """A knockout round as players call it: the final, the semi-finals, the quarter-finals, or its number."""
    names = {0: gettext("Final"), 1: gettext("Semi-finals"), 2: gettext("Quarter-finals")}
    return names.get(total - number) or gettext("Round %(number)s") % {"number": number}


def may_enter(tournament: Tournament, user) -> bool:
    if not tournament.invite_only or tournament.organiser_id == user.pk:
        return True
    return user.is_authenticated and tournament.invitations.filter(user=user).exists()


def goes_on(tournament: Tournament, tables: dict[int, list[TableRead]], entries: dict) -> dict[int, Entry]:
    """A knockout's bracket: table id -> the entrant who goes on from it, once it is over."""
    if tournament.format != Tournament.Format.KNOCKOUT:
        return {}
    result = {}
    for reads in tables.values():
        over = [read for read in reads if read.over]
        for read, winner in zip(over, knockout_winners(over, entries)):
            result[read.table.pk] = entries[winner]
    return result


def standing_line(row: Standing, entry: Entry) -> dict[str, object]:
    """One line of the standings table, its points written as players read them."""
    return {
        "rank": row.rank,
        "entry": entry,
        "score": format_points(row.score),
        "head_to_head": format_points(row.head_to_head),
        "buchholz": format_points(row.buchholz),
        "sonneborn_berger": format_points(row.sonneborn_berger),
        "played": row.played + row.byes,
    }


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = actions.do_create(request.user, form.chosen())
        except actions.ActionError as error:
            form.add_error(None, str(error))
        else:
            return redirect(tournament)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", {"form": form}, status=status)


@login_required
def organised(request: HttpRequest) -> HttpResponse:
    """The organiser's page: their tournaments, newest first; those not started yet may be changed,
    called off, and players invited."""
    rows = Tournament.objects.filter(organiser=request.user).annotate(entrants=Count("entries")).order_by("-starts_at")
    return render(request, "tournaments/organised.html", {"tournaments": list(rows[:LIST_LIMIT])})


@login_required
def edit_tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id, organiser=request.user)
    form = TournamentForm(request.POST or None, initial=form_initial(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            actions.do_edit(tournament.pk, request.user, form.chosen())
        except actions.ActionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("The tournament is changed."))
            return redirect(tournament)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "tournament": tournament}
    return render(request, "tournaments/new.html", context, status=status)


def form_initial(tournament: Tournament) -> dict[str, object]:
    """The organiser's form filled in with what the tournament is now."""
    fields = TournamentForm.base_fields
    initial = {name: getattr(tournament, name) for name in fields if name != "starts_at"}
    options = {option_key(tournament.game, name): value for name, value in (tournament.options or {}).items()}
    return {**initial, **options, "starts_at": timezone.localtime(tournament.starts_at)}


@require_POST
@login_required
def start_now(request: HttpRequest, tournament_id: int) -> HttpResponse:
    run = lambda: actions.do_organiser_start(tournament_id, request.user)  # noqa: E731
    return _act(request, run, gettext("The tournament has started."), object_id=tournament_id)


@require_POST
@login_required
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    run = lambda: actions.do_organiser_cancel(tournament_id, request.user)  # noqa: E731
    return _act(request, run, gettext("The tournament is called off."), object_id=tournament_id)


def _act(request: HttpRequest, run, success: str, model=Tournament, object_id: int = 0) -> HttpResponse:
    """Run an action of a form on a tournament's (or championship's) page: back to that page with a
    message, or the page drawn again with the refusal and its status."""
    page, name = (tournament_page, "tournament") if model is Tournament else (championship_page, "championship")
    try:
        run()
    except actions.ActionError as error:
        get_object_or_404(model, pk=object_id)
        return page(request, object_id, str(error), error.status)
    messages.success(request, success)
    return redirect(name, object_id)


@require_POST
@login_required
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    run = lambda: actions.do_join(tournament_id, request.user)  # noqa: E731
    return _act(request, run, gettext("You have entered the tournament."), object_id=tournament_id)


@require_POST
@login_required
def leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    run = lambda: actions.do_leave(tournament_id, request.user)  # noqa: E731
    return _act(request, run, gettext("You have left the tournament."), object_id=tournament_id)


@require_POST
@login_required
def invite(request: HttpRequest, tournament_id: int) -> HttpResponse:
    username = request.POST.get("username", "")
    run = lambda: actions.do_invite(tournament_id, request.user, username)  # noqa: E731
    return _act(request, run, gettext("The player may now enter."), object_id=tournament_id)


@require_POST
@login_required
def add_bot(request: HttpRequest, tournament_id: int) -> HttpResponse:
    level = request.POST.get("level", "")
    run = lambda: actions.do_add_bot(tournament_id, request.user, level)  # noqa: E731
    return _act(request, run, gettext("The bot is in."), object_id=tournament_id)


def championship_page(request: HttpRequest, championship_id: int, error: str = "", status: int = 200) -> HttpResponse:
    championship = get_object_or_404(Championship, pk=championship_id)
    seasons = list(championship.seasons.prefetch_related("divisions"))
    member = None
    if request.user.is_authenticated:
        member = championship.members.filter(user=request.user, left=False).first()
    context = {
        "championship": championship,
        "seasons": [(season, sorted(season.divisions.all(), key=lambda d: d.division or 0)) for season in seasons],
        "members": championship.members.filter(left=False).count(),
        "member": member,
        "error": error,
    }
    return render(request, "tournaments/championship.html", context, status=status)


@require_POST
@login_required
def championship_join(request: HttpRequest, championship_id: int) -> HttpResponse:
    run = lambda: championship_actions.do_join_championship(championship_id, request.user)  # noqa: E731
    success = gettext("You are in: you start in the lowest division next season.")
    return _act(request, run, success, Championship, championship_id)


@require_POST
@login_required
def championship_leave(request: HttpRequest, championship_id: int) -> HttpResponse:
    run = lambda: championship_actions.do_leave_championship(championship_id, request.user)  # noqa: E731
    success = gettext("You have left the championship; the season you are in goes on.")
    return _act(request, run, success, Championship, championship_id)
