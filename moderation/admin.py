"""The moderators' admin: reports queue, chat, blocks, the log, suspending and banning players (on the
User admin), and actions that ask for a reason."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin as AccountsUserAdmin
from accounts.models import User
from games.actions import ActionError
from moderation import actions
from moderation.models import Block, ChatMessage, ModerationLog, Report


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), help_text=_("Kept in the moderation log.")
    )


def with_reason(request, queryset, title: str, apply: Callable, extra_form: type[forms.Form] | None = None):
    """An admin action in two steps: a page asking why (and any extra choice), then the change."""
    form_class = type("Form", (extra_form, ReasonForm), {}) if extra_form else ReasonForm
    if "apply" in request.POST:
        form = form_class(request.POST)
        if form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    apply(obj, form.cleaned_data)
                    done += 1
                except ActionError as error:
                    messages.warning(request, f"{obj}: {error}")
            done_text = _("{title}: done for {done} of {count}.")
            messages.success(request, done_text.format(title=title, done=done, count=queryset.count()))
            return None
    else:
        form = form_class()
    return TemplateResponse(
        request,
        "admin/moderation/reason.html",
        {
            "title": title,
            "form": form,
            "objects": queryset,
            "action": request.POST.get("action"),
            "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
            "opts": queryset.model._meta,
        },
    )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["id", "message_text", "author", "reporter", "reason", "status", "created"]
    list_filter = ["status", "created"]
    search_fields = ["message__text", "message__author__username", "reporter__username", "reason"]
    readonly_fields = ["message", "reporter", "reason", "status", "created"]
    actions = ["hide_messages", "dismiss"]

    @admin.display(description=_("message"))
    def message_text(self, report: Report) -> str:
        return report.message.text[:80]

    @admin.display(description=_("written by"))
    def author(self, report: Report) -> str:
        return report.message.author.username

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Hide the reported messages"))
    def hide_messages(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Hide the reported messages"),
            lambda report, data: actions.hide_message(request.user, report.message_id, data["reason"]),
        )

    @admin.action(description=_("Dismiss the reports (the messages stay)"))
    def dismiss(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Dismiss reports"),
            lambda report, data: actions.dismiss_report(request.user, report.pk, data["reason"]),
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "author", "text", "hidden", "created"]
    list_filter = ["hidden", "created"]
    search_fields = ["text", "author__username", "=match__id"]
    readonly_fields = ["match", "author", "text", "created", "hidden"]
    actions = ["hide"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Hide the selected messages"))
    def hide(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Hide messages"),
            lambda message, data: actions.hide_message(request.user, message.pk, data["reason"]),
        )


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ["blocker", "blocked", "created"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    list_display = ["created", "moderator", "action", "target_user", "match", "reason"]
    list_filter = ["action", "created"]
    search_fields = ["moderator__username", "target_user__username", "reason", "=match__id"]
    readonly_fields = ["created", "moderator", "action", "target_user", "match", "message", "reason"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatsChoice(forms.Form):
    seats = forms.ChoiceField(
        label=_("Seats"),
        choices=[("bots", _("Bots take their seats in running matches")), ("abort", _("Abort their running matches"))],
        widget=forms.RadioSelect,
        initial="bots",
    )


class SuspendChoice(SeatsChoice):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=365, initial=7)


# The User admin is accounts'; the moderators' actions on players are ours, so this subclass takes its
# place (importing accounts.admin above registered it first).
admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AccountsUserAdmin):
    actions = ["suspend", "ban", "lift"]

    @admin.action(description=_("Suspend the selected players for some days"))
    def suspend(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Suspend players"),
            lambda user, data: actions.suspend_user(request.user, user, data["days"], data["seats"], data["reason"]),
            SuspendChoice,
        )

    @admin.action(description=_("Ban the selected players"))
    def ban(self, request, queryset):
        return with_reason(
            request,
            queryset,
            _("Ban players"),
            lambda user, data: actions.suspend_user(request.user, user, None, data["seats"], data["reason"]),
            SeatsChoice,
        )

    @admin.action(description=_("Lift suspensions and bans"))
    def lift(self, request, queryset):
        def apply(user, data):
            User.objects.filter(pk=user.pk).update(is_active=True, banned=False, suspended_until=None)
            actions._log(request.user, "lift suspension", data["reason"], target_user=user)

        return with_reason(request, queryset, _("Lift suspensions"), apply)
