from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.profile, name="profile"),
    path("language/", views.set_language, name="set_language"),
    path("privacy/", views.privacy, name="privacy"),
    path("settings/data/", views.data_export, name="data_export"),
    path("settings/data/<str:token>/", views.data_export_download, name="data_export_download"),
    path("settings/close/", views.close_account, name="close_account"),
]
