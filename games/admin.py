"""Live games in the admin: read-only, for looking into a game and its move log."""

from django.contrib import admin

from games.models import LiveGame, LiveMove


@admin.register(LiveGame)
class LiveGameAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "status", "version", "deadline", "next_hand_at", "created_at"]
    list_filter = ["kind", "status"]
    search_fields = ["title"]
    readonly_fields = [f.name for f in LiveGame._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LiveMove)
class LiveMoveAdmin(admin.ModelAdmin):
    list_display = ["live_game", "version", "hand_number", "seat", "actor", "via_token", "created_at"]
    list_filter = ["actor", "via_token"]
    readonly_fields = [f.name for f in LiveMove._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
