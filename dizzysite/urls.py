from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from dizzysite.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),  # for supervisors and load balancers
    path("admin/", admin.site.urls),
    # The words of our scripts in the page's language (locale/nl/LC_MESSAGES/djangojs.po).
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include("push.urls")),
    path("", include("moderation.urls")),
    path("", include("api.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("learn.urls")),
    path("", include("live.urls")),  # the live streams (Server-Sent Events)
    path("", include("games.urls")),
]
