from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation import actions as moderation
from moderation.admin import with_reason


class SeatsChoice(forms.Form):
    seats = forms.ChoiceField(
        label=_("Seats"),
        choices=[("bots", _("Bots take their seats in running matches")), ("abort", _("Abort their running matches"))],
        widget=forms.RadioSelect,
        initial="bots",
    )


class SuspendChoice(SeatsChoice):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=365, initial=7)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "email", "display_name", "is_active", "banned", "suspended_until", "date_joined"]
    list_filter = ["is_active", "banned", "is_staff", "is_superuser", "date_joined"]
    search_fields = ["username", "email", "display_name"]
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Player"), {"fields": ("display_name", "time_zone", "vacation_started", "email_preferences", "is_bot")}),
        (_("Moderation"), {"fields": ("banned", "suspended_until")}),
    )
    readonly_fields = ["banned", "suspended_until", "vacation_started"]
    actions = ["suspend", "ban", "lift"]

    @admin.action(description=_("Suspend the selected players for some days"))
    def suspend(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Suspend players"),
            lambda user, data: moderation.suspend_user(request.user, user, data["days"], data["seats"], data["reason"]),
            SuspendChoice,
        )

    @admin.action(description=_("Ban the selected players"))
    def ban(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Ban players"),
            lambda user, data: moderation.suspend_user(request.user, user, None, data["seats"], data["reason"]),
            SeatsChoice,
        )

    @admin.action(description=_("Lift suspensions and bans"))
    def lift(self, request, queryset):
        def apply(user, data):
            User.objects.filter(pk=user.pk).update(is_active=True, banned=False, suspended_until=None)
            moderation._log(request.user, "lift suspension", data["reason"], target_user=user)

        return with_reason(request, queryset, _("Lift suspensions"), apply)
