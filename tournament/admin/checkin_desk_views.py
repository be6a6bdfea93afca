"""The check-in desk of an event: find a student as they walk in (name, roll number or username), check
them in or undo it, check several or every registered player in at once, confirm a claim, add a walk-in,
with the desk's counts. Works without JavaScript (a search form, one small form per action); with it the
results follow the search box as the organizer types (``?partial=1`` answers the results alone).
Thin: the services check, change and audit.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from tournament.admin.event_views import _context
from tournament.admin.player_forms import WalkInForm
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.models import Event, Player
from tournament.services import checkin_desk, list_places, players
from tournament.services.players import PlayerActionError

CHECK_IN_REASON = "Checked in at the desk"
CLAIM_REASON = "ID checked at the desk"
WALK_IN_REASON = "Walk-in at the desk"


def urls(model_admin) -> list:
    wrap = model_admin.admin_site.admin_view
    return [path("<int:event_id>/check-in/", wrap(lambda request, event_id: checkin_desk_page(
        model_admin, request, event_id)), name="tournament_event_checkin_desk")]


class DeskWalkInForm(WalkInForm):
    """The walk-in form for this desk's event (no event to choose), with a reason already written."""

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, events=Event.objects.filter(pk=event.pk), **kwargs)
        del self.fields["event"]
        self.fields["reason"].widget = forms.TextInput()
        self.fields["reason"].initial = WALK_IN_REASON


def _text(value, limit: int) -> str:
    """Typed text as the database can keep it: no NUL characters, at most ``limit`` characters."""
    return (value or "").replace("\x00", "").strip()[:limit]


def _search_state(data) -> tuple[str, str]:
    query = _text(data.get("q"), 80)
    show = data.get("show") if data.get("show") in checkin_desk.SHOW else "all"
    return query, show


def _back(request, event: Event):
    query, show = _search_state(request.POST)
    params = {k: v for k, v in (("q", query), ("show", show)) if v and v != "all"}
    url = reverse("admin:tournament_event_checkin_desk", args=[event.pk])
    return redirect(f"{url}?{urlencode(params)}" if params else url)


def checkin_desk_page(model_admin, request, event_id):
    event = event_for_organizer(request, event_id, action="view")
    require_permission(request, Player, "view")
    walk_in_form = None
    if request.method == "POST":
        event = event_for_organizer(request, event_id)
        require_permission(request, Player, "change")
        if request.POST.get("action") == "walk_in":
            walk_in_form = DeskWalkInForm(request.POST, event=event)
            if _walk_in(request, event, walk_in_form):
                return _back(request, event)
        else:
            _act(request, event, request.POST)
            return _back(request, event)
    query, show = _search_state(request.GET)
    found = checkin_desk.search(event, query, show)
    context = _context(model_admin, request, event, f"Check-in desk: {event}", query=query, show=show,
                       shows=checkin_desk.SHOW.items(), found=found, claim_reason=CLAIM_REASON,
                       check_in_reason=CHECK_IN_REASON, can_change=request.user.has_perm("tournament.change_player"),
                       desk_url=reverse("admin:tournament_event_checkin_desk", args=[event.pk]),
                       is_nav_sidebar_enabled=False)  # the whole width for the desk on a tablet
    if request.GET.get("partial"):
        return TemplateResponse(request, "admin/tournament/checkin_desk_results.html", context)
    context.update(counts=checkin_desk.desk_counts(event), confirm_all=bool(request.GET.get("confirm_all")),
                   walk_in_form=walk_in_form or DeskWalkInForm(event=event),
                   control_room_url=reverse("admin:tournament_event_control_room", args=[event.pk]))
    return TemplateResponse(request, "admin/tournament/checkin_desk.html", context)


def _player(event: Event, value) -> Player:
    try:
        return Player.objects.get(event=event, pk=int(value))
    except (Player.DoesNotExist, TypeError, ValueError):
        raise PlayerActionError("No such player in this event.") from None


def _act(request, event: Event, post) -> None:
    action = post.get("action", "")
    user = request.user
    try:
        if action == "check_in":
            player = players.check_in(_player(event, post.get("player")), user, CHECK_IN_REASON)
            messages.success(request, f"{player} is checked in.")
        elif action == "undo":
            player = players.undo_check_in(_player(event, post.get("player")), user,
                                           _text(post.get("reason"), 500) or "Undone at the desk")
            messages.success(request, f"{player}'s check-in is undone: registered again.")
        elif action == "confirm_claim":
            player = players.confirm_claim(_player(event, post.get("player")), user, _text(post.get("reason"), 500))
            text = f"{player}'s claim of roll number {player.roll_number} is confirmed"
            if post.get("check_in") and player.status == Player.Status.REGISTERED:
                players.check_in(player, user, CHECK_IN_REASON)
                text += " and they are checked in"
            messages.success(request, text + ".")
        elif action in ("bulk", "all"):
            ids = None
            if action == "bulk":
                ids = [int(v) for v in post.getlist("players") if v.isdecimal() and len(v) < 19]
                if not ids:
                    raise PlayerActionError("Tick the players to check in first.")
            result = checkin_desk.check_in_many(event, ids, user, CHECK_IN_REASON)
            count = len(result.checked_in)
            messages.success(request, f"{count} player{'s' * (count != 1)} checked in.")
            for line in result.skipped[:20]:
                messages.warning(request, f"Not checked in: {line}.")
            if len(result.skipped) > 20:
                messages.warning(request, f"And {len(result.skipped) - 20} more not checked in.")
        else:
            raise PlayerActionError("Unknown action.")
    except PlayerActionError as error:
        messages.error(request, str(error))


def _walk_in(request, event: Event, form: DeskWalkInForm) -> bool:
    if not form.is_valid():
        messages.error(request, "The walk-in was not added: see the form below.")
        return False
    data = form.cleaned_data
    try:
        player = list_places.add_walk_in(event, request.user, data["reason"], data["display_name"],
                                         roll_number=data["roll_number"], user=data["account"],
                                         check_in=data["check_in"])
    except PlayerActionError as error:
        form.add_error(None, str(error))
        messages.error(request, "The walk-in was not added: see the form below.")
        return False
    messages.success(request, f"{player} joined as a walk-in"
                     + (" and is checked in." if player.status == Player.Status.CHECKED_IN else "."))
    return True
