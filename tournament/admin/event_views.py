"""Custom admin pages of an event: the standings CSV, and the shared context of the event's pages.

Thin: they check who may do what, shape the input and call the services.
"""

from __future__ import annotations

from django.http import HttpResponse

from tournament.admin.scoping import event_for_organizer
from tournament.csv_formats import write_standings_csv
from tournament.standings import compute_standings


def _context(model_admin, request, event, title, **extra):
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "original": event, "event": event, "title": title, **extra}


def standings_csv(model_admin, request, event_id):
    """The event's leaderboard as CSV (same ranking as the public leaderboard)."""
    event = event_for_organizer(request, event_id, action="view")
    return standings_response(event)


def standings_response(event) -> HttpResponse:
    response = HttpResponse(write_standings_csv(compute_standings(event)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    return response
