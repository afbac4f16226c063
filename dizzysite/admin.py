"""The admin site, warning its staff when the worker or beat has stopped."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from dizzysite.heartbeat import heartbeat_problems
from dizzysite.task_failures import failing_tasks


class DizzyAdminSite(admin.AdminSite):
    def each_context(self, request: HttpRequest) -> dict:
        context = super().each_context(request)
        user = getattr(request, "user", None)
        staff = user and user.is_active and user.is_staff
        context["heartbeat_problems"] = staff_heartbeat_problems() if staff else []
        context["task_problems"] = staff_task_problems() if staff else []
        return context

    def get_app_list(self, request: HttpRequest, app_label: str | None = None) -> list:
        """Built when read: every page's context names every app and model for the sidebar, a page that
        leaves the sidebar off (the match list) does not read them."""
        return SimpleLazyObject(lambda: super(DizzyAdminSite, self).get_app_list(request, app_label))


def staff_heartbeat_problems() -> list[str]:
    """heartbeat_problems(), or that the cache does not answer: an admin page never fails for it."""
    try:
        return heartbeat_problems()
    except Exception as error:
        return [gettext("The cache does not answer: %(error)s") % {"error": error}]


def staff_task_problems() -> list[str]:
    """failing_tasks(); nothing when the cache does not answer (the heartbeat warning says so)."""
    try:
        return failing_tasks()
    except Exception:
        return []
