"""Moderation through the Django admin. Changes to matches go through games.actions."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.utils.html import format_html

from games import actions
from games.models import Match, Move, Seat


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


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "players", "version", "created", "started", "ended", "deadline"]
    list_filter = ["game", "status", "time_preset", "created"]
    search_fields = ["=id", "seats__user__username", "seats__user__email", "created_by__username"]
    date_hierarchy = "created"
    inlines = [SeatInline, MoveInline]
    actions = ["abort_matches"]
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
    ]
    exclude = ["state"]

    @admin.display(description="players")
    def players(self, match: Match) -> str:
        return ", ".join(seat.public_name for seat in match.seats.all())

    @admin.display(description="engine state (staff only)")
    def state_pretty(self, match: Match) -> str:
        return format_html("<pre class='engine-state'>{}</pre>", json.dumps(match.state, indent=1))

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Abort the selected matches (nobody wins)")
    def abort_matches(self, request, queryset):
        done = 0
        for match in queryset:
            try:
                actions.do_abort(match.pk, request.user, f"Aborted by the moderator {request.user.username}")
                done += 1
            except actions.ActionError as error:
                self.message_user(request, f"#{match.pk}: {error}", messages.WARNING)
        self.message_user(request, f"Aborted {done} matches.")


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
