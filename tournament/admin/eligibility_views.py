"""The eligibility list upload: file → preview of the difference with the list → confirm.

The uploaded file waits in the session (never trusted back from the browser); the confirm form carries
the file's hash and the preview's fingerprint, and the service refuses a confirm whose file or list
moved since the preview. Thin: the service reads, compares and writes.
"""

from __future__ import annotations

import base64
import secrets

from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from tournament.admin.forms import EligibilityUploadForm
from tournament.admin.scoping import event_for_organizer, require_permission
from tournament.csv_formats import ELIGIBILITY_COLUMNS, PROGRAMME_SPELLINGS
from tournament.models import EligibilityEntry
from tournament.services import eligibility

UPLOAD_SESSION_KEY = "eligibility-upload-{event_id}"


def eligibility_upload(model_admin, request, event_id):
    event = event_for_organizer(request, event_id)
    require_permission(request, EligibilityEntry, "add")
    key = UPLOAD_SESSION_KEY.format(event_id=event.pk)
    plan = stored = None
    form = EligibilityUploadForm()
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.get(key)
        if not stored or not secrets.compare_digest(stored["token"], request.POST.get("token", "")):
            messages.error(request, "That preview is no longer current (it expired, or another file was "
                                    "uploaded for this event since); upload the file again.")
            return redirect(request.path)
        content = base64.b64decode(stored["content"])
        remove_missing = request.POST.get("missing") == "remove"
        if remove_missing:
            require_permission(request, EligibilityEntry, "delete")
        try:
            result = eligibility.import_entries(
                event, content, request.user, only_good_rows=request.POST.get("only_good_rows") == "on",
                filename=stored["name"], remove_missing=remove_missing,
                digest=request.POST.get("digest", ""), fingerprint=request.POST.get("fingerprint", ""))
        except eligibility.EligibilityImportError as error:
            messages.error(request, str(error))
            plan = eligibility.preview_import(event, content)
        else:
            del request.session[key]
            messages.success(request, _done(result, event))
            changelist = reverse("admin:tournament_eligibilityentry_changelist")
            return redirect(f"{changelist}?event__id__exact={event.pk}")
    elif request.method == "POST":
        form = EligibilityUploadForm(request.POST, request.FILES)
        if form.is_valid():
            content = form.cleaned_data["file"].read()
            plan = eligibility.preview_import(event, content)
            stored = {"token": secrets.token_urlsafe(16), "name": form.cleaned_data["file"].name[:200],
                      "content": base64.b64encode(content).decode("ascii")}
            request.session[key] = stored
    context = {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta,
               "original": event, "event": event, "title": f"Upload an eligibility list for {event}",
               "form": form, "preview": plan, "columns": ",".join(ELIGIBILITY_COLUMNS),
               "programmes": PROGRAMME_SPELLINGS, "entries": event.eligibility_entries.count(),
               "policy": eligibility.event_policy(event)}
    if plan is not None:
        context.update(token=stored["token"], filename=stored["name"])
    return TemplateResponse(request, "admin/tournament/eligibility_upload.html", context)


def _done(result: eligibility.ImportResult, event) -> str:
    parts = [f"{result.created} added", f"{result.updated} changed", f"{result.unchanged} unchanged"]
    if result.removed or result.kept:
        parts.append(f"{result.removed} removed, {result.kept} kept though not in the file")
    text = f"Eligibility list of {event}: " + ", ".join(parts)
    return text + (f"; {result.skipped} bad rows skipped." if result.skipped else ".")
