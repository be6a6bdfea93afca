"""Where browsers report Content-Security-Policy violations: the endpoint that logs them, and the
middleware that sends the policy (django-csp's) together with the ``Reporting-Endpoints`` header its
``report-to`` directive names.

The policy itself is ``CONTENT_SECURITY_POLICY`` in config/settings.py (docs/security.md). Browsers post a
violation in one of two shapes: ``report-uri``'s ``{"csp-report": {...}}`` (``application/csp-report``)
and the Reporting API's list of ``{"type": "csp-violation", "body": {...}}``
(``application/reports+json``). Both are read here by hand: the fields are few, and no maintained library
reads both. Whatever arrives, the answer is 204 (logged), 400 (not a report), 405 (not a POST) or 413
(over ``MAX_BODY`` bytes): never a 500, and a body is never read past the cap.
"""

from __future__ import annotations

import json
import logging

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

logger = logging.getLogger(__name__)

MAX_BODY = 16 * 1024  # bytes: one report is under 2 KB; the Reporting API may batch a few
MAX_REPORTS = 10  # violations logged per request, the rest counted
MAX_FIELD = 300  # characters kept of each logged field (a URL, a sample of the blocked code)
REPORTING_GROUP = "csp"  # the policy's report-to name

# (report-uri's name, the Reporting API's name) of each logged field
FIELDS = (
    ("document-uri", "documentURL"),
    ("effective-directive", "effectiveDirective"),
    ("violated-directive", "effectiveDirective"),
    ("blocked-uri", "blockedURL"),
    ("source-file", "sourceFile"),
    ("line-number", "lineNumber"),
    ("script-sample", "sample"),
    ("disposition", "disposition"),
)


class ReportingCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, which also names the report endpoint for the policy's ``report-to``."""

    def process_response(self, request, response):
        response = super().process_response(request, response)
        if "report-to" in response.get("Content-Security-Policy", ""):
            response.headers.setdefault("Reporting-Endpoints",
                                        f'{REPORTING_GROUP}="{settings.CSP_REPORT_PATH}"')
        return response


class BadReport(ValueError):
    """The body is not a CSP violation report; the message says why."""


def violations(body: bytes) -> list[dict]:
    """The violations in a report body of either shape, each as report-uri's field names to strings."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise BadReport(f"the body is not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):
        return [_fields(data["csp-report"], reporting_api=False)]
    if isinstance(data, list) and data:
        found = [_fields(item["body"], reporting_api=True) for item in data
                 if isinstance(item, dict) and item.get("type") == "csp-violation" and isinstance(item.get("body"), dict)]
        if found:
            return found
    raise BadReport('expected {"csp-report": {...}} or a list of {"type": "csp-violation", "body": {...}}')


def _fields(report: dict, *, reporting_api: bool) -> dict:
    named = {}
    for name, api_name in FIELDS:
        value = report.get(api_name if reporting_api else name)
        if value is not None and value != "":
            named.setdefault(name, str(value)[:MAX_FIELD])
    return named


@csrf_exempt  # browsers post reports without a token (and without the reader's cookies)
@require_POST
def csp_report(request):
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return HttpResponse("Content-Length is not a number.\n", status=400, content_type="text/plain")
    if length > MAX_BODY:
        return _too_large()
    body = request.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        return _too_large()
    try:
        found = violations(body)
    except BadReport as exc:
        return HttpResponse(f"Not a CSP violation report: {exc}.\n", status=400, content_type="text/plain")
    for violation in found[:MAX_REPORTS]:
        logger.warning("CSP violation: %s", " ".join(f"{k}={v!r}" for k, v in violation.items()))
    if len(found) > MAX_REPORTS:
        logger.warning("CSP violation: %d more in the same report, not logged", len(found) - MAX_REPORTS)
    return HttpResponse(status=204)


def _too_large():
    return HttpResponse(f"A report is at most {MAX_BODY} bytes.\n", status=413, content_type="text/plain")
