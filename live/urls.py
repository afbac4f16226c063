from django.urls import path

from live import views

urlpatterns = [
    path("live/", views.browser_stream, name="live_browser"),
    path("live/match/<int:match_id>/", views.match_stream, name="live_match"),
    path("live/me/", views.me_stream, name="live_me"),
]
