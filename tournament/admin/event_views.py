"""Custom admin pages of an event: the standings CSV, the certificates and results sheet (PDF), and the
shared context of the event's pages.

Thin: they check who may do what, shape the input and call the services.
"""

from __future__ import annotations

from django.http import HttpResponse

from tournament.admin.scoping import event_for_organizer
from tournament.csv_formats import write_standings_csv
from tournament.results_pdf import results_pdf
from tournament.services.final_places import event_places
from tournament.services.results_sheet import results_document
from tournament.views.certificates import pdf_response


def _context(model_admin, request, event, title, **extra):
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "original": event, "event": event, "title": title, **extra}


def standings_csv(model_admin, request, event_id):
    """The event's leaderboard as CSV (same ranking as the public leaderboard)."""
    event = event_for_organizer(request, event_id, action="view")
    return standings_response(event)


def standings_response(event) -> HttpResponse:
    response = HttpResponse(write_standings_csv(event_places(event)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    return response


def certificates_pdf(model_admin, request, event_id):
    """One PDF: a certificate per participant, then the results sheet (places and the bracket). Made on
    request; under ASGI each request's view runs in a thread of its own, so drawing it holds up no
    other request."""
    event = event_for_organizer(request, event_id, action="view")
    return pdf_response(results_pdf(results_document(event)), f"{event.slug}-certificates.pdf")
