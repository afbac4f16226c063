from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.games_list, name="games"),
    path("turns/", views.turn_count, name="turn_count"),
    path("games/<slug:slug>/rules/", views.rules, name="rules"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/move/", views.move, name="move"),
    path("matches/<int:match_id>/resign/", views.resign, name="resign"),
    path("matches/<int:match_id>/abort/", views.abort, name="abort"),
    path("matches/<int:match_id>/notes/", views.save_notes, name="notes"),
    path("matches/<int:match_id>/history/", views.history, name="history"),
    path("matches/<int:match_id>/join/", views.join, name="join"),
    path("matches/<int:match_id>/leave/", views.leave, name="leave"),
    path("matches/<int:match_id>/cancel/", views.cancel, name="cancel"),
    path("matches/<int:match_id>/seats/<int:seat_number>/", views.fill_seat, name="fill_seat"),
    path("settings/vacation/", views.vacation, name="vacation"),
]
