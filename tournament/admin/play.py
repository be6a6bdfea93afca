"""Rounds, tables, games, hands: read in the admin, changed only through the organizer's pages."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path, reverse
from django.utils.html import format_html

from tournament.admin import live_round_views, play_views
from tournament.admin.scoping import ONLY_MINE, EventScopedAdmin
from tournament.models import AuditEntry, Game, Hand, HandScore, Round, Seat, Table


class ReadOnlyScopedAdmin(EventScopedAdmin):
    """Viewable by the event's organizers; changed by services (with audit entries), never by raw forms."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyScopedAdmin):
    list_display = ("__str__", "kind", "status", "seed", "started_at", "tables_link")
    list_filter = (("event", ONLY_MINE), "status")
    list_select_related = ("event",)

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [path("<int:round_id>/tables/", wrap(self.overview_view), name="tournament_round_overview"),
                path("<int:round_id>/live/", wrap(self.live_view), name="tournament_round_live"),
                *super().get_urls()]

    def overview_view(self, request, round_id):
        return play_views.round_overview(self, request, round_id)

    def live_view(self, request, round_id):
        return live_round_views.live_round(self, request, round_id)

    @admin.display(description="Tables and scores")
    def tables_link(self, round_):
        return format_html('<a href="{}">Open</a> · <a href="{}">Live view</a>',
                           reverse("admin:tournament_round_overview", args=[round_.pk]),
                           reverse("admin:tournament_round_live", args=[round_.pk]))


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "player", "bot_kind")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyScopedAdmin):
    event_path = "round__event"
    list_display = ("__str__", "round", "stage")
    list_filter = (("round__event", ONLY_MINE),)
    list_select_related = ("round__event",)
    inlines = [SeatInline]


@admin.register(Game)
class GameAdmin(ReadOnlyScopedAdmin):
    event_path = "table__round__event"
    list_display = ("__str__", "round_name", "status", "target_score", "winner", "record_link")
    list_filter = (("table__round__event", ONLY_MINE), "status")
    list_select_related = ("table__round__event", "winner__player")

    def get_urls(self):
        return [path("<int:game_id>/record-hand/", self.admin_site.admin_view(self.record_hand_view),
                     name="tournament_game_record_hand"), *super().get_urls()]

    def record_hand_view(self, request, game_id):
        return play_views.record_hand(self, request, game_id)

    @admin.display(description="Round")
    def round_name(self, game):
        return game.table.round

    @admin.display(description="Hands")
    def record_link(self, game):
        return format_html('<a href="{}">Record / correct</a>',
                           reverse("admin:tournament_game_record_hand", args=[game.pk]))


class HandScoreInline(admin.TabularInline):
    model = HandScore
    fields = ("seat", "points_left", "points_won")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyScopedAdmin):
    event_path = "game__table__round__event"
    list_display = ("__str__", "game", "winner", "source", "ended_at")
    list_filter = (("game__table__round__event", ONLY_MINE), "source")
    list_select_related = ("game__table", "winner__player")
    inlines = [HandScoreInline]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyScopedAdmin):
    list_display = ("created_at", "event", "actor", "action", "target", "reason")
    list_filter = (("event", ONLY_MINE), "action")
    search_fields = ("target", "reason", "actor__username")
    list_select_related = ("event", "actor")
    readonly_fields = ("event", "actor", "action", "target", "reason", "changes", "created_at")
