from django.urls import path

from push import views

urlpatterns = [
    path("push/key/", views.vapid_key, name="vapid_key"),
    path("push/subscriptions/", views.subscribe, name="push_subscribe"),
    path("push/subscriptions/<int:device_id>/remove/", views.remove_device, name="push_remove"),
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/bell/", views.bell, name="inbox_bell"),
    path("inbox/<int:notification_id>/", views.inbox_open, name="inbox_open"),
    path("inbox/<int:notification_id>/read/", views.inbox_read, name="inbox_read"),
    path("inbox/<int:notification_id>/delete/", views.inbox_delete, name="inbox_delete"),
    path("inbox/read-all/", views.inbox_read_all, name="inbox_read_all"),
    path("inbox/seen/<str:token>/", views.inbox_seen, name="inbox_seen"),
    path("inbox/mute/", views.inbox_mute, name="inbox_mute"),
    path("inbox/unmute/", views.inbox_unmute, name="inbox_unmute"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
]
