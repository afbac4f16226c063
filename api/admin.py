from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from api.models import ApiToken, CalendarFeed


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Moderators see who uses the API and can revoke a token; the token itself is never stored."""

    list_display = ["name", "user", "hint", "created", "last_used", "revoked"]
    list_filter = ["revoked", "created"]
    search_fields = ["name", "user__username", "hint"]
    readonly_fields = ["user", "name", "hint", "key_hash", "created", "last_used", "revoked"]
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False  # tokens are made by their owners, shown to them once

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        for token in queryset:
            token.revoke()


@admin.register(CalendarFeed)
class CalendarFeedAdmin(admin.ModelAdmin):
    list_display = ["user", "created"]
    search_fields = ["user__username"]
    exclude = ["token"]  # the secret address stays its owner's
    readonly_fields = ["user", "created"]

    def has_add_permission(self, request) -> bool:
        return False
