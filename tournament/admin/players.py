"""Players: organizer actions (check in, withdraw, disqualify) through the services, with reasons."""

from __future__ import annotations

from django.contrib import admin, messages
from django.template.response import TemplateResponse

from tournament.admin.forms import ReasonForm
from tournament.admin.scoping import ONLY_MINE, EventScopedAdmin
from tournament.models import Player
from tournament.services import players as player_actions


@admin.register(Player)
class PlayerAdmin(EventScopedAdmin):
    list_display = ("display_name", "roll_number", "user", "status", "seeding", "event")
    list_filter = (("event", ONLY_MINE), "status")
    search_fields = ("display_name", "roll_number", "user__username", "user__email")
    list_select_related = ("event", "user")
    readonly_fields = ("event", "user", "status", "registered_at", "checked_in_at")
    fields = ("event", "user", "display_name", "roll_number", "seeding", "status", "registered_at",
              "checked_in_at")
    actions = ["check_in", "withdraw", "disqualify"]

    def has_add_permission(self, request):
        return False  # players register themselves (or an organizer imports them); never made here

    @admin.action(description="Check in", permissions=["change"])
    def check_in(self, request, queryset):
        done = 0
        for player in queryset:
            try:
                player_actions.check_in(player, request.user)
                done += 1
            except player_actions.PlayerActionError as error:
                self.message_user(request, str(error), messages.WARNING)
        if done:
            self.message_user(request, f"{done} checked in.")

    @admin.action(description="Withdraw (asks for a reason)", permissions=["change"])
    def withdraw(self, request, queryset):
        return self._with_reason(request, queryset, "withdraw", player_actions.withdraw, "withdrawn")

    @admin.action(description="Disqualify (asks for a reason)", permissions=["change"])
    def disqualify(self, request, queryset):
        return self._with_reason(request, queryset, "disqualify", player_actions.disqualify, "disqualified")

    def _with_reason(self, request, queryset, action, service, done_word):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            done = 0
            for player in queryset:
                try:
                    service(player, request.user, form.cleaned_data["reason"])
                    done += 1
                except player_actions.PlayerActionError as error:
                    self.message_user(request, str(error), messages.WARNING)
            if done:
                self.message_user(request, f"{done} {done_word}.")
            return None
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "players": queryset, "action": action, "title": f"{action.capitalize()} players",
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return TemplateResponse(request, "admin/tournament/player_reason.html", context)
