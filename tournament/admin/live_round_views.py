"""The organizer's live round view: every table as it plays (pushed over ``ws/organizer/rounds/<id>/``),
with per-table and round-wide actions as plain forms; and the event's announcements.

Thin: permission checks (`scoping`), the input read and checked, the services called.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from tournament.admin.event_views import _context
from tournament.admin.scoping import event_for_organizer, scoped_object
from tournament.models import Announcement, Game, Player, Round, Seat
from tournament.services import announcements, game_status, rounds
from tournament.services.live_round import round_live
from tournament.services.round_control import (
    finish_all,
    replace_with_bot,
    replace_with_reserve,
    reserves,
    set_time_limit,
)

MAX_LIMIT_MINUTES = 24 * 60
GAME_ACTIONS = ("pause", "resume", "finish")


def live_round(model_admin, request, round_id):
    round_ = scoped_object(request, Round, round_id, "event", action="view", related=["event"])
    if request.method == "POST":
        round_ = scoped_object(request, Round, round_id, "event", action="change", related=["event"])
        try:
            note = _act(request, round_)
        except (rounds.RoundError, announcements.AnnouncementError) as error:
            messages.error(request, str(error))
        else:
            messages.success(request, note)
        return redirect(request.path)
    can_change = request.user.has_perm("tournament.change_round")
    context = _context(model_admin, request, round_.event, f"Live: round {round_.number} of {round_.event}",
                       round=round_, live=round_live(round_), can_change=can_change,
                       reserves=reserves(round_) if can_change else [],
                       announcement=announcements.running(round_.event_id),
                       ws_path=f"/ws/organizer/rounds/{round_.pk}/",
                       overview_url=reverse("admin:tournament_round_overview", args=[round_.pk]))
    context["opts"] = Round._meta
    return TemplateResponse(request, "admin/tournament/live_round.html", context)


def _act(request, round_: Round) -> str:
    post = request.POST
    action = post.get("action", "")
    kind, _, target = action.partition(":")
    if kind in GAME_ACTIONS:
        game = scoped_object(request, Game, target, "table__round__event", related=["table"])
        if game.table.round_id != round_.pk:
            raise rounds.RoundError("That game is not in this round.")
        return game_status.organizer_game_action(game, kind, request.user, post.get(f"reason_{game.pk}", ""))
    if kind == "replace":
        # Seats are changed only through this service (the round's change permission is checked above).
        seat = scoped_object(request, Seat, target, "table__round__event", action="view",
                             related=["table", "player"])
        if seat.table.round_id != round_.pk:
            raise rounds.RoundError("That seat is not in this round.")
        choice = post.get(f"replacement_{seat.pk}", "")
        reason = post.get(f"reason_seat_{seat.pk}", "")
        if choice == "bot":
            replace_with_bot(seat, request.user, reason)
            return f"Table {seat.table.number}, seat {seat.number + 1}: a bot plays it now."
        if not choice.isdigit():
            raise rounds.RoundError("Choose a reserve or a bot to take the seat.")
        reserve = Player.objects.filter(pk=int(choice), event_id=round_.event_id).first()
        if reserve is None:
            raise rounds.RoundError("That reserve is not a player of this event.")
        replace_with_reserve(seat, reserve, request.user, reason)
        return f"Table {seat.table.number}, seat {seat.number + 1}: {reserve} plays it now."
    if kind == "finish_all":
        done = finish_all(round_, request.user, post.get("reason_all", ""))
        return f"{len(done)} game(s) finished."
    if kind == "time_limit":
        raw = post.get("minutes", "").strip()
        if raw == "":
            set_time_limit(round_, None, request.user)
            return "The round has no time limit."
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT_MINUTES:
            raise rounds.RoundError(f"The time limit is a whole number of minutes from 1 to {MAX_LIMIT_MINUTES}.")
        at = timezone.now() + timedelta(minutes=int(raw))
        set_time_limit(round_, at, request.user)
        return f"Time limit set: {raw} minute(s) from now ({timezone.localtime(at):%H:%M})."
    if kind in ("announce", "end_announcement"):
        return _announcement_action(request, round_.event, kind, target)
    raise rounds.RoundError("Unknown action.")


def _announcement_action(request, event, kind: str, target: str) -> str:
    """Post an announcement (`announce`: the text, and the minutes it shows for, if given) or end one
    (`end_announcement`, its id in `target`); raises AnnouncementError with what is wrong."""
    if kind == "end_announcement":
        made = Announcement.objects.filter(pk=int(target), event=event).first() if target.isdigit() else None
        if made is None:
            raise announcements.AnnouncementError("That announcement is not one of this event's.")
        announcements.end(made, request.user)
        return "Announcement ended: every page and table of the event has dropped it."
    raw = request.POST.get("announce_minutes", "").strip()
    if raw and not (raw.isdigit() and 1 <= int(raw) <= MAX_LIMIT_MINUTES):
        raise announcements.AnnouncementError(
            f"An announcement shows for a whole number of minutes from 1 to {MAX_LIMIT_MINUTES} (empty: until "
            "you end it).")
    ends_at = timezone.now() + timedelta(minutes=int(raw)) if raw else None
    announcements.announce(event, request.POST.get("text", ""), request.user, ends_at=ends_at)
    until = f" until {timezone.localtime(ends_at):%H:%M}" if ends_at else ""
    return f"Announcement sent to every page and table of the event{until}."


def event_live(model_admin, request, event_id):
    """From the event: its running round's live view (else its latest round's; else the rounds list)."""
    event = event_for_organizer(request, event_id, action="view")
    round_ = (Round.objects.filter(event=event, status=Round.Status.RUNNING).order_by("-number").first()
              or Round.objects.filter(event=event).order_by("-number").first())
    if round_ is None:
        messages.info(request, f"{event} has no round yet.")
        return redirect(reverse("admin:tournament_round_changelist") + f"?event__id__exact={event.pk}")
    return redirect("admin:tournament_round_live", round_.pk)


def announce(model_admin, request, event_id):
    """The event's announcements: write one (pushed at once, for a time or until ended), end one, see the
    ones made with who posted and who ended them."""
    event = event_for_organizer(request, event_id, action="view")
    if request.method == "POST":
        event = event_for_organizer(request, event_id, action="change")
        kind, _, target = (request.POST.get("action") or "announce").partition(":")
        try:
            if kind not in ("announce", "end_announcement"):
                raise announcements.AnnouncementError("Unknown action.")
            note = _announcement_action(request, event, kind, target)
        except announcements.AnnouncementError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, note)
        return redirect(request.path)
    made = announcements.recent(event.pk, 20)
    context = _context(model_admin, request, event, f"Announcements of {event}", made=made,
                       can_change=request.user.has_perm("tournament.change_event"),
                       max_minutes=MAX_LIMIT_MINUTES)
    return TemplateResponse(request, "admin/tournament/announce.html", context)
