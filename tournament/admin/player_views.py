"""The organizer's player pages beyond the change list: reassigning a roll number, adding a walk-in."""

from __future__ import annotations

from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from tournament.admin.player_forms import ReassignRollNumberForm, WalkInForm
from tournament.admin.scoping import require_permission
from tournament.models import Player
from tournament.services import list_places
from tournament.services.organizers import events_run_by
from tournament.services.players import PlayerActionError


def _context(model_admin, request, title: str, **extra) -> dict:
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta, "title": title,
            **extra}


def reassign_roll_number(model_admin, request, queryset):
    """Admin action on exactly one player: move their roll number to another account or player."""
    if queryset.count() != 1:
        model_admin.message_user(request, "Choose exactly one player whose roll number to reassign.",
                                 messages.WARNING)
        return None
    player = queryset.select_related("event").get()
    form = ReassignRollNumberForm(request.POST if "apply" in request.POST else None, event=player.event)
    if form.is_valid():
        data = form.cleaned_data
        try:
            holder = list_places.reassign_roll_number(
                player, request.user, data["reason"], to_user=data["to_user"], to_player=data["to_player"],
                display_name=data["display_name"], withdraw=data["withdraw"])
        except PlayerActionError as error:
            form.add_error(None, str(error))
        else:
            model_admin.message_user(request, f"Roll number {holder.roll_number} now belongs to {holder}.")
            return None
    context = _context(model_admin, request, f"Reassign roll number {player.roll_number or '(none)'}",
                       form=form, player=player, action="reassign_roll_number",
                       action_checkbox_name=admin.helpers.ACTION_CHECKBOX_NAME)
    return TemplateResponse(request, "admin/tournament/player_reassign.html", context)


def walk_in(model_admin, request):
    """Add a player at the desk, with or without an account, into one of the organizer's events."""
    require_permission(request, Player, "change")
    form = WalkInForm(request.POST or None, events=events_run_by(request.user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = list_places.add_walk_in(
                data["event"], request.user, data["reason"], data["display_name"],
                roll_number=data["roll_number"], user=data["account"], check_in=data["check_in"])
        except PlayerActionError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{player} joined {player.event} as a walk-in"
                             + (" and is checked in." if player.status == Player.Status.CHECKED_IN else "."))
            return redirect(reverse("admin:tournament_player_changelist") + f"?event__id__exact={player.event_id}")
    return TemplateResponse(request, "admin/tournament/player_walk_in.html",
                            _context(model_admin, request, "Add a walk-in", form=form))
