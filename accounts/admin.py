from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The accounts' side of the User admin; moderation/admin.py registers a subclass in its place with
    the suspend, ban and lift actions (accounts is the lower layer and never imports moderation)."""

    list_display = ["username", "email", "display_name", "is_active", "banned", "suspended_until", "date_joined"]
    list_filter = ["is_active", "banned", "is_staff", "is_superuser", "date_joined"]
    search_fields = ["username", "email", "display_name"]
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "time_zone", "vacation_started", "email_preferences", "is_bot")}),
        (_("Moderation"), {"fields": ("banned", "suspended_until")}),
        (_("Closed account"), {"fields": ("closed_at", "erased_at")}),
    )
    readonly_fields = ["banned", "suspended_until", "vacation_started", "erased_at"]
