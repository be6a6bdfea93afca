"""Players: organizer actions through the services, each with a reason kept in the audit log — check in,
confirm a claim, withdraw, disqualify, reinstate, free or reassign a roll number, add a walk-in."""

from __future__ import annotations

from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.urls import path

from tournament.admin import player_views
from tournament.admin.forms import ReasonForm
from tournament.admin.player_forms import FreeRollNumberForm, PlayerChangeForm
from tournament.admin.scoping import ONLY_MINE, EventScopedAdmin
from tournament.models import Player
from tournament.services import list_places
from tournament.services import players as player_actions


@admin.register(Player)
class PlayerAdmin(EventScopedAdmin):
    form = PlayerChangeForm
    list_display = ("display_name", "roll_number", "user", "status", "claim", "seeding", "event")
    list_filter = (("event", ONLY_MINE), "status", "claim")
    search_fields = ("display_name", "roll_number", "user__username", "user__email")
    list_select_related = ("event", "user")
    readonly_fields = ("event", "user", "roll_number", "status", "claim", "registered_at", "checked_in_at")
    fields = ("event", "user", "display_name", "roll_number", "claim", "seeding", "status", "registered_at",
              "checked_in_at")
    actions = ["check_in", "confirm_claim", "withdraw", "disqualify", "reinstate", "free_roll_number",
               "reassign_roll_number"]

    def has_add_permission(self, request):
        return False  # players register themselves; an organizer adds a walk-in on its own page

    def get_urls(self):
        return [
            path("walk-in/", self.admin_site.admin_view(self.walk_in_view), name="tournament_player_walk_in"),
            *super().get_urls(),
        ]

    def walk_in_view(self, request):
        return player_views.walk_in(self, request)

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

    @admin.action(description="Confirm claim of a roll number (asks for a reason)", permissions=["change"])
    def confirm_claim(self, request, queryset):
        return self._with_reason(request, queryset, "confirm_claim", player_actions.confirm_claim,
                                 "Claim confirmed (check them in next)", "Confirm claim")

    @admin.action(description="Withdraw (asks for a reason)", permissions=["change"])
    def withdraw(self, request, queryset):
        return self._with_reason(request, queryset, "withdraw", player_actions.withdraw, "Withdrawn")

    @admin.action(description="Disqualify (asks for a reason)", permissions=["change"])
    def disqualify(self, request, queryset):
        return self._with_reason(request, queryset, "disqualify", player_actions.disqualify, "Disqualified")

    @admin.action(description="Reinstate withdrawn or disqualified (asks for a reason)", permissions=["change"])
    def reinstate(self, request, queryset):
        return self._with_reason(request, queryset, "reinstate", player_actions.reinstate,
                                 "Reinstated (registered: they check in again)")

    @admin.action(description="Free roll number (asks for a reason)", permissions=["change"])
    def free_roll_number(self, request, queryset):
        return self._with_reason(
            request, queryset, "free_roll_number",
            lambda player, actor, reason, withdraw: list_places.free_roll_number(player, actor, reason, withdraw),
            "Roll number freed", "Free roll number", form_class=FreeRollNumberForm)

    @admin.action(description="Reassign roll number to someone else (asks to whom and why)",
                  permissions=["change"])
    def reassign_roll_number(self, request, queryset):
        return player_views.reassign_roll_number(self, request, queryset)

    def _with_reason(self, request, queryset, action, service, done_word, button="", form_class=ReasonForm):
        form = form_class(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            extra = {k: v for k, v in form.cleaned_data.items() if k != "reason"}
            done = []
            for player in queryset:
                label = f"{player.display_name} ({player.roll_number})" if player.roll_number else player.display_name
                try:
                    service(player, request.user, form.cleaned_data["reason"], **extra)
                    done.append(label)
                except player_actions.PlayerActionError as error:
                    self.message_user(request, str(error), messages.WARNING)
            if done:
                more = f" and {len(done) - 5} more" if len(done) > 5 else ""
                self.message_user(request, f"{done_word}: {', '.join(done[:5])}{more}.")
            return None
        button = button or action.capitalize()
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
                   "players": queryset, "action": action, "title": f"{button}: players", "button": button,
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return TemplateResponse(request, "admin/tournament/player_reason.html", context)
