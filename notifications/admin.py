from django.contrib import admin

from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "recipient", "match", "turn", "status", "attempts", "created", "sent_at"]
    list_filter = ["status", "kind", "created"]
    search_fields = ["recipient__username", "recipient__email", "=match__id", "error"]
    readonly_fields = ["kind", "match", "recipient", "turn", "status", "attempts", "error", "created", "sent_at"]

    def has_add_permission(self, request):
        return False
