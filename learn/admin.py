from django.contrib import admin

from learn.models import TutorialProgress


@admin.register(TutorialProgress)
class TutorialProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "step", "finished", "updated")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
