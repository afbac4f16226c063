from django.urls import path

from moderation import views

urlpatterns = [
    path("matches/<int:match_id>/chat/", views.chat, name="chat"),
    path("chat/<int:message_id>/report/", views.report, name="report_message"),
    path("players/<str:username>/block/", views.block, name="block"),
    path("players/<str:username>/unblock/", views.unblock, name="unblock"),
]
