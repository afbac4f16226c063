from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include("push.urls")),
    path("", include("moderation.urls")),
    path("", include("api.urls")),
    path("", include("ratings.urls")),
    path("", include("games.urls")),
]
