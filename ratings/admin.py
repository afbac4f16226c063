"""Ratings in the admin: read-only, since only finished matches change them."""

from django.contrib import admin

from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["game", "pool", "user", "bot_level", "value", "sigma", "matches", "last_played"]
    list_filter = ["game", "pool", "bot_level"]
    search_fields = ["user__username"]
    readonly_fields = ["game", "pool", "user", "bot_level", "mu", "sigma", "matches", "last_played"]

    def has_add_permission(self, request):
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "seat", "rating", "outcome", "before", "after", "created"]
    list_filter = ["outcome", "rating__game", "rating__pool"]
    search_fields = ["=match__id", "rating__user__username"]
    readonly_fields = [
        "match",
        "seat",
        "rating",
        "outcome",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "created",
    ]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
