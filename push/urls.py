from django.urls import path

from push import views

urlpatterns = [
    path("push/key/", views.vapid_key, name="vapid_key"),
    path("push/subscriptions/", views.subscribe, name="push_subscribe"),
    path("push/subscriptions/<int:device_id>/remove/", views.remove_device, name="push_remove"),
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/bell/", views.bell, name="inbox_bell"),
    path("inbox/<int:notification_id>/", views.inbox_open, name="inbox_open"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
]
