"""A student's own certificate of an event (PDF), linked from "My event" once the places are final.

The PDF is made on request (``tournament.services.results_sheet`` reads the places, ``tournament.results_pdf``
draws one page): a small, quick job. The organizer's PDF of every certificate and the results sheet is an
admin page (``tournament.admin.event_views.certificates_pdf``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_safe

from tournament.models import Player
from tournament.results_pdf import results_pdf
from tournament.services.results_sheet import has_certificate, ready, results_document
from tournament.views.public import get_public_event


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _refused(reason: str) -> HttpResponse:
    """No certificate, and why, in words (a 404 whose reason the student reads)."""
    return HttpResponse(reason, status=404, content_type="text/plain; charset=utf-8")


@require_safe
@login_required
def my_certificate(request, slug: str):
    event = get_public_event(slug)
    player = Player.objects.filter(event=event, user=request.user).first()
    if player is None:
        return _refused("You are not registered for this event: there is no certificate for you.")
    if not ready(event):
        return _refused("Certificates are ready once the final is decided.")
    if not has_certificate(event, player):
        return _refused("Certificates go to the players who took part in the event.")
    document = results_document(event, player_id=player.pk)
    return pdf_response(results_pdf(document), f"{event.slug}-certificate.pdf")
