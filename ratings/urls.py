from django.urls import path

from ratings import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="player"),
    path("players/<str:username>/matches/", views.player_matches, name="player_matches"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("matches/<int:match_id>/replay/", views.replay, name="replay"),
    path("matches/<int:match_id>/record.json", views.record, name="match_record"),
    path("matches/<int:match_id>/rematch/", views.rematch, name="rematch"),
]
