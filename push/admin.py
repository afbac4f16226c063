from django.contrib import admin

from push.models import PushDelivery, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "label", "created", "last_used"]
    search_fields = ["user__username"]
    # The endpoint and keys are the device's secret address: not shown.
    fields = ["user", "label", "created", "last_used"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "notification", "subscription", "status", "attempts", "created", "sent_at"]
    list_filter = ["status", "created"]
    readonly_fields = [
        "notification",
        "subscription",
        "status",
        "attempts",
        "error",
        "created",
        "claimed_at",
        "sent_at",
    ]

    def has_add_permission(self, request):
        return False
