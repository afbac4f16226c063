from django.urls import path

from learn import views

urlpatterns = [
    path("learn/", views.learn_index, name="learn"),
    path("learn/<slug:slug>/", views.tutorial, name="tutorial"),
    path("learn/<slug:slug>/move/", views.tutorial_move, name="tutorial_move"),
    path("learn/<slug:slug>/next/", views.tutorial_next, name="tutorial_next"),
    path("learn/<slug:slug>/restart/", views.tutorial_restart, name="tutorial_restart"),
]
