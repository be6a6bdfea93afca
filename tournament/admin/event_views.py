"""Custom admin pages of an event: eligibility upload (preview → confirm), standings CSV.

Thin: they check who may do what, shape the input and call the services.
"""

from __future__ import annotations

import base64
import secrets

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from tournament.admin.forms import EligibilityUploadForm
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.csv_formats import ELIGIBILITY_COLUMNS, PROGRAMME_SPELLINGS, write_standings_csv
from tournament.models import EligibilityEntry
from tournament.services import eligibility

UPLOAD_SESSION_KEY = "eligibility-upload-{event_id}"


def _context(model_admin, request, event, title, **extra):
    return {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
            "original": event, "event": event, "title": title, **extra}


def eligibility_upload(model_admin, request, event_id):
    """Upload → preview (every bad row with its reason) → confirm; the file waits in the session."""
    event = event_for_organizer(request, event_id)
    require_permission(request, EligibilityEntry, "add")
    key = UPLOAD_SESSION_KEY.format(event_id=event.pk)
    preview = None
    form = EligibilityUploadForm()
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(key)
        if not stored or not secrets.compare_digest(stored["token"], request.POST.get("token", "")):
            messages.error(request, "That preview has expired; upload the file again.")
            return redirect(request.path)
        try:
            result = eligibility.import_entries(
                event, base64.b64decode(stored["content"]), request.user,
                only_good_rows=request.POST.get("only_good_rows") == "on", filename=stored["name"])
        except eligibility.EligibilityImportError as error:
            messages.error(request, str(error))
            preview = eligibility.preview_import(event, base64.b64decode(stored["content"]))
            token, filename = stored["token"], stored["name"]
        else:
            del request.session[key]
            messages.success(request, f"{result.created} added to the eligibility list of {event}"
                             + (f"; {result.skipped} bad rows skipped." if result.skipped else "."))
            changelist = reverse("admin:tournament_eligibilityentry_changelist")
            return redirect(f"{changelist}?event__id__exact={event.pk}")
    elif request.method == "POST":
        form = EligibilityUploadForm(request.POST, request.FILES)
        if form.is_valid():
            content = form.cleaned_data["file"].read()
            filename = form.cleaned_data["file"].name
            preview = eligibility.preview_import(event, content)
            token = secrets.token_urlsafe(16)
            request.session[key] = {"token": token, "name": filename,
                                    "content": base64.b64encode(content).decode("ascii")}
    context = _context(model_admin, request, event, f"Upload an eligibility list for {event}",
                       form=form, preview=preview, columns=",".join(ELIGIBILITY_COLUMNS),
                       programmes=PROGRAMME_SPELLINGS, entries=event.eligibility_entries.count())
    if preview is not None:
        context.update(token=token, filename=filename)
    return TemplateResponse(request, "admin/tournament/eligibility_upload.html", context)


def standings_csv(model_admin, request, event_id):
    """The event's leaderboard as CSV (same ranking as the public leaderboard)."""
    event = event_for_organizer(request, event_id, action="view")
    return standings_response(event)


def standings_response(event) -> HttpResponse:
    from tournament.standings import compute_standings

    response = HttpResponse(write_standings_csv(compute_standings(event)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings.csv"'
    return response
