from django.urls import path

from notifications import views

urlpatterns = [
    path("email/preferences/", views.email_preferences, name="email_preferences"),
    path("email/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
