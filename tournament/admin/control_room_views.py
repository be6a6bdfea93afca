"""The organizer's control room of an event: its steps in order (``tournament.event_steps``), each with
its state and counts, and the one action that comes next, as a link to the page that does it or a button
that calls the service here. Thin: the steps are derived by a pure function, the switches are services.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, path, reverse

from tournament import event_steps as steps_
from tournament.admin.event_views import _context
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.generators.brackets import BracketError
from tournament.models import Event, Round
from tournament.services import announcements, bracket_stages, event_status, rounds
from tournament.services.event_facts import event_facts


def urls(model_admin) -> list:
    wrap = model_admin.admin_site.admin_view
    return [path("<int:event_id>/control-room/", wrap(lambda request, event_id: control_room(
        model_admin, request, event_id)), name="tournament_event_control_room")]


def round_page_url(round_: Round) -> str:
    """The live round view where there is one, else the round's tables and scores."""
    try:
        return reverse("admin:tournament_round_live", args=[round_.pk])
    except NoReverseMatch:
        return reverse("admin:tournament_round_overview", args=[round_.pk])


def _links(event: Event) -> dict[str, str]:
    rounds_ = {r.number: r for r in Round.objects.filter(event=event, number__in=[1, 2])}
    links = {
        steps_.UPLOAD_LIST: reverse("admin:tournament_event_eligibility_upload", args=[event.pk]),
        steps_.CHECKIN_DESK: reverse("admin:tournament_event_checkin_desk", args=[event.pk]),
        steps_.SEAT_ROUND_ONE: reverse("admin:tournament_event_first_round", args=[event.pk]),
        steps_.PLAN_NEXT_ROUND: reverse("admin:tournament_event_plan_next_round", args=[event.pk]),
        steps_.RESULTS_PAGE: reverse("results", args=[event.slug]),
        steps_.CERTIFICATES: reverse("admin:tournament_event_certificates", args=[event.pk]),
    }
    if 1 in rounds_:
        links[steps_.ROUND_ONE_PAGE] = round_page_url(rounds_[1])
    if 2 in rounds_:
        links[steps_.BRACKET_PAGE] = reverse("admin:tournament_event_bracket", args=[event.pk, rounds_[2].pk])
    return links


def control_room(model_admin, request, event_id):
    event = event_for_organizer(request, event_id, action="view")
    if request.method == "POST":
        event = event_for_organizer(request, event_id)
        try:
            _act(request, event, request.POST.get("action", ""), request.POST.get("arg", ""))
        except (event_status.EventStatusError, rounds.RoundError, BracketError) as error:
            messages.error(request, str(error))
        return redirect(request.path)
    steps = steps_.event_steps(event_facts(event))
    links = _links(event)
    for step in steps:
        for action in [step.action, *step.links]:
            if action is not None and not action.is_post:
                action.url = links.get(action.target, "")
    context = _context(model_admin, request, event, f"Control room: {event}", steps=steps,
                       next_action=steps_.next_action(steps), announcements=announcements.recent(event.pk, 5),
                       public_url=event.get_absolute_url(), event_url=reverse("admin:tournament_event_change",
                                                                              args=[event.pk]))
    return TemplateResponse(request, "admin/tournament/control_room.html", context)


def _act(request, event: Event, action: str, arg: str) -> None:
    user = request.user
    if action == steps_.OPEN_REGISTRATION:
        event_status.open_registration(event, user)
        messages.success(request, "Registration is open.")
    elif action == steps_.OPEN_CHECKIN:
        event_status.set_checkin(event, user, True)
        messages.success(request, "Check-in is open.")
    elif action == steps_.FINISH_EVENT:
        event_status.finish_event(event, user)
        messages.success(request, f"{event} is finished.")
    elif action == steps_.START_ROUND_ONE:
        require_permission(request, Round, "change")
        round_ = Round.objects.filter(event=event, number=1).first()
        if round_ is None:
            raise rounds.RoundError("Round 1 is not seated yet: seat it first.")
        rounds.start_round(round_, user)
        messages.success(request, "Round 1 started.")
    elif action == steps_.START_STAGE:
        require_permission(request, Round, "change")
        round_ = Round.objects.filter(event=event, number=2, kind=Round.Kind.BRACKET).first()
        if round_ is None or not arg.isdecimal() or len(arg) > 4:
            raise BracketError("There is no such stage to start.")
        started = bracket_stages.start_stage(round_, int(arg), user)
        messages.success(request, f"Stage {arg} started ({started} game{'s' * (started != 1)}).")
    else:
        messages.error(request, "Unknown action.")
