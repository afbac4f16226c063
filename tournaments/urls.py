from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/new/", views.new_tournament, name="new_tournament"),
    path("tournaments/organised/", views.organised, name="organised_tournaments"),
    path("tournaments/<int:tournament_id>/edit/", views.edit_tournament, name="tournament_edit"),
    path("tournaments/<int:tournament_id>/cancel/", views.cancel, name="tournament_cancel"),
    path("tournaments/<int:tournament_id>/start/", views.start_now, name="tournament_start"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="tournament_join"),
    path("tournaments/<int:tournament_id>/leave/", views.leave, name="tournament_leave"),
    path("tournaments/<int:tournament_id>/invite/", views.invite, name="tournament_invite"),
    path("tournaments/<int:tournament_id>/bots/", views.add_bot, name="tournament_add_bot"),
    path("championships/<int:championship_id>/", views.championship_page, name="championship"),
    path("championships/<int:championship_id>/join/", views.championship_join, name="championship_join"),
    path("championships/<int:championship_id>/leave/", views.championship_leave, name="championship_leave"),
]
