"""Moderation of tournaments in the admin: cancel and disqualify, each with its reason kept."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation.admin import with_reason
from tournaments import actions
from tournaments.models import Championship, ChampionshipMember, Entry, Round, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["user", "bot_level", "seed", "rating", "place", "withdrawn", "disqualified", "reason"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "game", "format", "status", "starts_at", "current_round", "organiser"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name", "organiser__username"]
    readonly_fields = ["status", "current_round", "ended", "end_reason", "created"]
    inlines = [EntryInline]
    actions = ["cancel_tournaments", "repair_round"]

    @admin.action(description=_("Pair the current round again (after disqualifications)"))
    def repair_round(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Pair the round again"),
            lambda t, data: actions.do_repair_round(t.pk, request.user, data["reason"]),
        )

    @admin.action(description=_("Cancel the selected tournaments"))
    def cancel_tournaments(self, request, queryset):
        return with_reason(
            request, queryset, _("Cancel tournaments"), lambda t, data: actions.do_cancel(t.pk, data["reason"])
        )


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["id", "tournament", "user", "bot_level", "seed", "place", "withdrawn", "disqualified"]
    list_filter = ["disqualified", "withdrawn"]
    search_fields = ["user__username", "tournament__name"]
    readonly_fields = [*EntryInline.fields, "tournament"]
    actions = ["disqualify"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Disqualify the selected entrants"))
    def disqualify(self, request, queryset):
        return with_reason(
            request, queryset, _("Disqualify"), lambda e, data: actions.do_disqualify(e.pk, data["reason"])
        )


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["id", "tournament", "number", "created"]


class MemberInline(admin.TabularInline):
    model = ChampionshipMember
    fields = ["user", "joined", "left"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Championship)
class ChampionshipAdmin(admin.ModelAdmin):
    """Admins open a championship (one per game and clock); the sweep starts its seasons."""

    list_display = ["id", "game", "time_preset", "division_size", "promote"]
    inlines = [MemberInline]
