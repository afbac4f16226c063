"""The matches in the Django admin: moderators read them, abort, adjudicate and replay them. Changes to
matches go through games.actions (moderation.actions). It lives in moderation, the app of moderators'
tools, so that games imports no app above it; ModerationConfig.ready() imports it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.templatetags.admin_list import result_headers
from django.contrib.admin.views.main import ChangeList
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import formats
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from dizzysite.addresses import id_parts
from dizzysite.dates import PageDates
from games.actions import ActionError
from games.engines.registry import GAMES
from games.models import SEAT_NAME_FIELDS, USER_NAME_FIELDS, Match, Move, MoveArchive, Seat, TimeControl
from games.reads import match_moves
from games.replay import state_after
from moderation import actions as moderation
from moderation.admin import with_reason

# A search for a player lists their newest matches, this many (20 pages of 25): its count and sort
# stay bounded for a player with thousands. An older one is found by its id (older_matches_hint says
# so on the page).
SEARCH_MATCHES = 500

# The columns MatchTable draws (templates/admin/games/match/change_list_results.html), the action
# checkbox before them while there are actions (not in a raw id field's popup). A list with other
# columns is drawn by the admin's own result_list.
LIST_DISPLAY = ["id", "game", "status", "players", "version", "created", "started", "ended", "deadline"]
# What the list reads of a match: its columns and the game of its name (the checkbox's label).
LIST_FIELDS = ["id", "game", "status", "version", "created", "started", "ended", "deadline"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "bot_level", "accepted", "to_act", "timeouts_in_row"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ["number", "seat", "kind", "payload", "log", "by_bot", "created"]
    readonly_fields = fields
    can_delete = False
    ordering = ["-number"]

    def has_add_permission(self, request, obj=None):
        return False


class EstimatedCountPaginator(Paginator):
    """The unfiltered list's count from PostgreSQL's statistics (pg_class.reltuples, kept by autovacuum):
    COUNT(*) over a million matches reads them all on every page. A filtered or searched
    list is counted exactly: its rows are found by an index."""

    @cached_property
    def count(self) -> int:
        query = getattr(self.object_list, "query", None)
        if connection.vendor == "postgresql" and query is not None and not query.where:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass", [Match._meta.db_table]
                )
                estimate = cursor.fetchone()[0]
            if estimate > 10_000:  # small tables are counted: the figure is exact and cheap
                return estimate
        return super().count


class GameFilter(admin.SimpleListFilter):
    """The games of the registry: the default filter of a field without choices reads every row's
    value (SELECT DISTINCT over the whole table) on each changelist page."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return list(GAMES.items())

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() else queryset


class TimePresetFilter(GameFilter):
    title = _("time control")
    parameter_name = "time_preset"

    def lookups(self, request, model_admin):
        return [(key, key) for key in [*TimeControl.PRESETS, "custom"]]

    def queryset(self, request, queryset):
        return queryset.filter(time_preset=self.value()) if self.value() else queryset


def load_seat_names(matches: list[Match]) -> dict[int, list[str]]:
    """The players' names of each match (by its id), in seat order, with only what Seat.public_name
    reads: the seats in one query, their users by id in another. Django's prefetch of seats__user writes
    its users' ids as a tuple IN, costly to build for a page of 50 matches, and its prefetch of the
    seats alone costs more than the query; a join of the seats to the users was planned as a
    scan of every user."""
    seats = list(Seat.objects.filter(match__in=[match.pk for match in matches]).only(*SEAT_NAME_FIELDS))
    users = User.objects.only(*USER_NAME_FIELDS).in_bulk({seat.user_id for seat in seats if seat.user_id})
    names: dict[int, list[str]] = {match.pk: [] for match in matches}
    for seat in seats:  # Seat's ordering is by number
        if seat.user_id is not None:
            seat.user = users[seat.user_id]
        names[seat.match_id].append(seat.public_name)
    return names


class MatchRow(TypedDict):
    """A row of the match list, each cell's text as the admin's display_for_field writes it. A dict, not
    an object: the template's variables look a key up first, an attribute only after that failed."""

    pk: str
    url: str
    label: str  # the checkbox's aria-label
    opener: str  # the value a raw id field's popup takes
    id: str
    game: str
    status: str
    players: str
    version: str
    created: str
    started: str
    ended: str
    deadline: str


@dataclass(frozen=True, slots=True)
class MatchTable:
    headers: list[dict]
    num_sorted_fields: int
    rows: list[MatchRow]
    checkbox: bool


def older_matches_hint() -> str:
    return gettext(
        "Only the newest %(count)s matches of a player are searched, and the filters choose among them. "
        "For an older match, search for its number."
    ) % {"count": SEARCH_MATCHES}


class MatchChangeList(ChangeList):
    """The rows' links carry the list's filters as the admin's add_preserved_filters writes them on a
    change page's address, without it resolving each row's address against every URL of the site (a
    fifth of a searched or filtered list's time). The rows are drawn from `table`, the cells'
    texts prepared once a page: the admin's items_for_result looked each cell's field up, formatted it
    through the generic display_for_field and wrapped it in format_html, most of the list's time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.row_query, self.preserved_filters = self.preserved_filters, ""

    def get_queryset(self, request, exclude_parameters=None):
        # Only the list's columns: the matches' JSON columns (options, result, ...) were decoded for
        # each row. An action reads the rest if it needs it.
        return super().get_queryset(request, exclude_parameters).only(*LIST_FIELDS)

    def get_results(self, request) -> None:
        super().get_results(request)
        self.seat_names = load_seat_names(self.result_list)

    def url_for_result(self, result) -> str:
        url = super().url_for_result(result)
        return f"{url}?{self.row_query}" if self.row_query else url

    @cached_property
    def table(self) -> MatchTable | None:
        """The page's headers and rows for change_list_results.html; None for columns it does not draw
        (the admin's result_list draws those)."""
        checkbox = self.list_display[:1] == ["action_checkbox"]
        links = list(self.list_display_links or ())
        if self.list_display[checkbox:] != LIST_DISPLAY or links != ["id"] or self.formset:
            return None
        headers = list(result_headers(self))
        empty = self.model_admin.get_empty_value_display()
        statuses = {value: str(label) for value, label in Match._meta.get_field("status").flatchoices}
        when = PageDates(formats.get_format("DATETIME_FORMAT"), empty)
        label = gettext("Select this object for an action - {}")
        # One change address resolved for the page, each row's id put in its place.
        head, tail = id_parts(lambda pk: self.url_for_result(Match(pk=pk)))
        rows = [
            MatchRow(
                pk=str(match.pk),
                url=f"{head}{match.pk}{tail}",
                label=format_html(label, str(match)),
                opener=str(match.serializable_value(self.to_field or self.pk_attname)),
                id=formats.number_format(match.pk),
                game=match.game if match.game.strip() else empty,
                status=statuses.get(match.status, empty),
                players=", ".join(self.seat_names[match.pk]) or empty,
                version=formats.number_format(match.version),
                created=when(match.created),
                started=when(match.started),
                ended=when(match.ended),
                deadline=when(match.deadline),
            )
            for match in self.result_list
        ]
        return MatchTable(
            headers=headers,
            num_sorted_fields=sum(1 for header in headers if header["sortable"] and header["sorted"]),
            rows=rows,
            checkbox=checkbox,
        )


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = LIST_DISPLAY
    list_filter = [GameFilter, "status", TimePresetFilter, "created"]
    search_fields = ["=id", "seats__user__username", "seats__user__email", "created_by__username"]
    # No COUNT(*) of all matches (the "N total" link) and an estimated count for the
    # unfiltered list; no date_hierarchy, which reads the dates of every match on each page.
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # 25 rows a page, as a search's or a filter's first page usually holds what a moderator looks for:
    # drawing 50 rows kept the list over 50 ms, and a page is a click away.
    list_per_page = 25
    inlines = [SeatInline, MoveInline]
    actions = ["abort_matches", "adjudicate"]
    readonly_fields = [
        "game",
        "status",
        "created_by",
        "created",
        "started",
        "ended",
        "version",
        "revision",
        "seed",
        "options",
        "result",
        "end_reason",
        "deadline",
        "time_preset",
        "turn_seconds",
        "reserve_periods",
        "period_seconds",
        "state_pretty",
        "moves_archived_count",
    ]
    exclude = ["state"]

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        return ", ".join(seat.public_name for seat in match.seats.all())

    @admin.display(description=_("engine state (staff only)"))
    def state_pretty(self, match: Match) -> str:
        return format_html("<pre class='engine-state'>{}</pre>", json.dumps(match.state, indent=1))

    @admin.display(description=_("moves archived"))
    def moves_archived_count(self, match: Match) -> str:
        """How many moves are in the match's one archive row; the Moves below are its rows."""
        if not match.moves_archived:
            return "-"
        return str(len(MoveArchive.objects.filter(match=match).values_list("moves", flat=True).first() or []))

    def get_queryset(self, request):
        # The list never shows the state (the change page reads it once, for state_pretty); the page's
        # rows get their players' names from MatchChangeList.get_results.
        return super().get_queryset(request).defer("state", "history_tail")

    def get_changelist(self, request, **kwargs):
        return MatchChangeList

    def changelist_view(self, request, extra_context=None):
        # Without the admin's sidebar of every app and model: it was a fifth of the list's drawing
        # . The breadcrumbs lead to the other models, as on the admin's change pages.
        return super().changelist_view(request, {"is_nav_sidebar_enabled": False, **(extra_context or {})})

    def get_search_results(self, request, queryset, search_term):
        """A match id, or a player's whole username or email in any case: the players are found first,
        then the newest SEARCH_MATCHES matches they sit in (by match id; the list's filters choose among
        them) by the seats' user index. The default search ORs a substring match over three joins and reads
        every match; all of a player's matches were joined, counted and sorted for a page of 50."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if term.isdigit():
            return queryset.filter(pk=int(term)), False
        # accounts' indexes on UPPER(username) and UPPER(email) serve these two. The players' ids as a
        # list: one player's seats are then read from the index in match order, only as far as the bound.
        found = User.objects.filter(Q(username__iexact=term) | Q(email__iexact=term))
        seats = Seat.objects.filter(user__in=list(found.values_list("pk", flat=True)[:50])).order_by("-match_id")
        if seats[SEARCH_MATCHES : SEARCH_MATCHES + 1].exists():  # the bound leaves some out
            self.message_user(request, older_matches_hint(), messages.INFO)
        # The sidebar's filters (game, status, ...) choose among these: joined into the bounded subquery,
        # they were planned as a scan of every seat. A subquery, not a list of ids: a list of 500 costs
        # more to send and plan than its rows.
        return queryset.filter(pk__in=seats.values("match_id")[:SEARCH_MATCHES]), False

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Abort the selected matches (nobody wins)"))
    def abort_matches(self, request, queryset):
        return with_reason(
            request, queryset, _("Abort matches"), lambda m, data: moderation.abort(request.user, m.pk, data["reason"])
        )

    @admin.action(description=_("Adjudicate the selected match (choose the winners)"))
    def adjudicate(self, request, queryset):
        class Winners(forms.Form):
            winners = forms.CharField(
                label=_("Winners"),
                required=False,
                help_text=_("Seat numbers of the winners, from 0, separated by commas; empty: a draw."),
            )

        def apply(match, data):
            try:
                winners = [int(x) for x in data["winners"].replace(" ", "").split(",") if x]
            except ValueError:
                raise ActionError(_("Winners are seat numbers separated by commas.")) from None
            moderation.adjudicate(request.user, match.pk, winners, data["reason"])

        return with_reason(request, queryset, _("Adjudicate"), apply, Winners)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        match = Match.objects.filter(pk=object_id).first()
        if match is not None:
            moderation.log_state_read(request.user, match, "read the full state")  # staff see hidden information
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        return [
            path("<int:match_id>/replay/", self.admin_site.admin_view(self.replay_view), name="games_match_replay"),
            *super().get_urls(),
        ]

    @admin.display(description=_("replay"))
    def replay_link(self, match: Match) -> str:
        address = reverse("admin:games_match_replay", args=[match.pk])
        return format_html('<a href="{}">{}</a>', address, _("replay move by move"))

    def replay_view(self, request, match_id: int):
        """The state after move N, rebuilt from the seed and the log (staff only, logged)."""
        match = get_object_or_404(Match, pk=match_id)
        moves = match_moves(match)
        try:
            upto = max(0, min(int(request.GET.get("n", len(moves))), len(moves)))
        except ValueError:
            upto = len(moves)
        state = state_after(match, moves[:upto])  # the one replay loop, shared with the public replay page
        moderation.log_state_read(request.user, match, f"replayed to move {upto}")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Replay of {match}").format(match=match),
            "match": match,
            "upto": upto,
            "total": len(moves),
            "move": moves[upto - 1] if upto else None,
            "state": json.dumps(state, indent=1),
            "opts": Match._meta,
        }
        return TemplateResponse(request, "admin/games/replay.html", context)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "user", "bot_level", "accepted", "to_act"]
    list_filter = ["bot_level", "accepted", "to_act", "match__game"]
    search_fields = ["user__username", "=match__id"]
    raw_id_fields = ["match", "user"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "seat", "kind", "by_bot", "created"]
    list_filter = ["kind", "by_bot", "match__game"]
    search_fields = ["=match__id"]
    readonly_fields = ["match", "number", "seat", "kind", "payload", "log", "by_bot", "created"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
