"""Eligibility entries: search, filters, CSV export; the upload lives on the event."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpResponse
from django.utils.html import format_html

from tournament.admin.scoping import ONLY_MINE, EventScopedAdmin
from tournament.csv_formats import write_eligibility_csv
from tournament.models import EligibilityEntry
from tournament.services.eligibility import outside_policy


@admin.register(EligibilityEntry)
class EligibilityEntryAdmin(EventScopedAdmin):
    list_display = ("roll_number", "name", "email", "department", "programme", "year", "other_columns",
                    "policy_check", "event")
    list_filter = (("event", ONLY_MINE), "department", "programme", "year")
    search_fields = ("roll_number", "name", "email")
    list_select_related = ("event",)
    actions = ["export_csv"]

    @admin.display(description="Other columns")
    def other_columns(self, entry):
        return "; ".join(f"{name}: {value}" for name, value in (entry.extra or {}).items())

    @admin.display(description="Eligibility policy")
    def policy_check(self, entry):
        """Whether the event's policy lets this entry register, and if not, why."""
        reason = outside_policy(entry.event, entry)
        return format_html('<span class="outside-policy">Outside: {}</span>', reason) if reason else "may register"

    @admin.action(description="Export selected to CSV", permissions=["view"])
    def export_csv(self, request, queryset):
        response = HttpResponse(write_eligibility_csv(queryset.order_by("event", "roll_number")),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="eligibility.csv"'
        return response
