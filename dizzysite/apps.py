"""django.contrib.admin with the site's own AdminSite (dizzysite/admin.py: the worker's warning)."""

from django.contrib.admin.apps import AdminConfig


class DizzyAdminConfig(AdminConfig):
    """INSTALLED_APPS names this instead of django.contrib.admin: `admin.site` is a DizzyAdminSite."""

    default_site = "dizzysite.admin.DizzyAdminSite"
