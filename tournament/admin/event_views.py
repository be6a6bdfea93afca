"""Custom admin pages of an event: first round, standings CSV.

Thin: they check who may do what, shape the input and call the services.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from tournament.admin.forms import SeatingOptionsForm
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.csv_formats import write_standings_csv
from tournament.models import Player, Round
from tournament.seating import BOT, SeatingError
from tournament.services import rounds


def _context(model_admin, request, event, title, **extra):
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "original": event, "event": event, "title": title, **extra}


def first_round(model_admin, request, event_id):
    """Build round 1: options → preview tables (move players with a select each) → confirm."""
    event = event_for_organizer(request, event_id)
    require_permission(request, Round, "change")
    existing = rounds.first_round(event)
    data = request.POST if request.method == "POST" else (request.GET if "source" in request.GET else None)
    options = SeatingOptionsForm(data, initial={"source": rounds.default_source(event)})
    plan = problems = None
    if options.is_bound and options.is_valid():
        o = options.cleaned_data
        try:
            seed = None if "reshuffle" in data else o["seed"]
            plan = rounds.plan_first_round(event, seed=seed, source=o["source"],
                                           fill_with_bots=o["fill_with_bots"], use_seeding=o["use_seeding"])
            if request.method == "POST":
                assignment = _assignment(request.POST, plan)
                if assignment:
                    plan = rounds.rearranged_plan(event, plan, assignment)
        except (SeatingError, rounds.RoundError) as error:
            messages.error(request, str(error))
            plan = None
        if plan is not None:
            problems = rounds.plan_problems(event, plan)
            confirmable = seed is not None  # only a previewed plan (its seed fixed) is confirmed
            if request.method == "POST" and "confirm" in request.POST and confirmable and not problems:
                try:
                    round_ = rounds.create_first_round(event, plan, request.user)
                except rounds.RoundError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(request, f"Round 1 created with {len(plan.tables)} tables (seed {plan.seed}).")
                    return redirect("admin:tournament_round_overview", round_.pk)
            # Fix the seed in the form so "Apply moves" and "Confirm" rebuild exactly these tables.
            options = SeatingOptionsForm(initial={**options.cleaned_data, "seed": plan.seed})
    players = {p.pk: p for p in Player.objects.filter(event=event)} if plan else {}
    tables = []
    if plan:
        for number, members in enumerate(plan.tables, start=1):
            tables.append({"number": number, "size": len(members),
                           "players": [players[pid] for pid in members if pid is not BOT],
                           "bots": sum(1 for pid in members if pid is BOT)})
    context = _context(model_admin, request, event, f"First round of {event}", options=options, plan=plan,
                       tables=tables, problems=problems, existing=existing,
                       table_numbers=range(1, len(tables) + 2))
    return TemplateResponse(request, "admin/tournament/first_round.html", context)


def _assignment(post, plan) -> dict[int, int]:
    """Player id → table number from the preview's selects (empty when the form had none)."""
    assignment = {}
    for pid in plan.player_ids:
        value = post.get(f"table_{pid}")
        if value is None:
            continue
        try:
            assignment[pid] = int(value)
        except ValueError:
            raise rounds.RoundError("A table number is not a number.") from None
    if assignment and len(assignment) != len(plan.player_ids):
        raise rounds.RoundError("The players to seat changed since the preview; build the preview again.")
    return assignment


def standings_csv(model_admin, request, event_id):
    """The event's leaderboard as CSV (same ranking as the public leaderboard)."""
    event = event_for_organizer(request, event_id, action="view")
    return standings_response(event)


def standings_response(event) -> HttpResponse:
    from tournament.standings import compute_standings

    response = HttpResponse(write_standings_csv(compute_standings(event)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    return response
