from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.profile, name="profile"),
    path("language/", views.set_language, name="set_language"),
    path("privacy/", views.privacy, name="privacy"),
]
