"""Event admin: the rules (validated by the engine through ``Event.clean``), a rules summary, and the
links and actions into the event's custom pages."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Count
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from tournament.admin import (
    bracket_views,
    checkin_desk_views,
    control_room_views,
    eligibility_views,
    event_views,
    live_round_views,
    seating_views,
)
from tournament.admin.policy_editor import EventAdminForm
from tournament.admin.scoping import EventScopedAdmin
from tournament.models import Event
from tournament.rules import RulesRefused, rules_for_event
from tournament.services import eligibility
from tournament.services.organizers import ORGANIZER_GROUP


@admin.register(Event)
class EventAdmin(EventScopedAdmin):
    event_path = ""
    form = EventAdminForm
    list_display = ("name", "status", "rules_preset", "eligibility", "player_count", "event_links")
    list_filter = ("status", "rules_preset", "eligibility", "entrants")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("rules_summary",)
    filter_horizontal = ("organizers",)
    actions = ["build_first_round", "upload_eligibility_list", "export_standings"]
    fieldsets = (
        (None, {"fields": ("name", "slug", "description", "status", "organizers")}),
        ("Rules", {"fields": ("rules_preset", "rules_overrides", "target_score", "rules_summary")}),
        ("Tables", {"fields": ("entrants", "min_table_size", "max_table_size", "turn_seconds",
                               "missed_turns_before_bot", "arrival_grace_seconds")}),
        ("Registration", {"fields": ("eligibility", "eligibility_policy", "registration_opens", "registration_closes",
                                     "checkin_open")}),
    )

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "entrants":
            field.required = False  # left out of a form: the model's default (people)
        return field

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:event_id>/eligibility/upload/", wrap(self.eligibility_upload_view),
                 name="tournament_event_eligibility_upload"),
            path("<int:event_id>/first-round/", wrap(self.first_round_view), name="tournament_event_first_round"),
            path("<int:event_id>/standings.csv", wrap(self.standings_view), name="tournament_event_standings_csv"),
            path("<int:event_id>/certificates.pdf", wrap(self.certificates_view), name="tournament_event_certificates"),
            path("<int:event_id>/live/", wrap(self.live_view), name="tournament_event_live"),
            path("<int:event_id>/announce/", wrap(self.announce_view), name="tournament_event_announce"),
            *bracket_views.urls(self),
            *control_room_views.urls(self),
            *checkin_desk_views.urls(self),
            *super().get_urls(),
        ]

    def eligibility_upload_view(self, request, event_id):
        return eligibility_views.eligibility_upload(self, request, event_id)

    def first_round_view(self, request, event_id):
        return seating_views.first_round(self, request, event_id)

    def live_view(self, request, event_id):
        return live_round_views.event_live(self, request, event_id)

    def announce_view(self, request, event_id):
        return live_round_views.announce(self, request, event_id)

    def standings_view(self, request, event_id):
        return event_views.standings_csv(self, request, event_id)

    def certificates_view(self, request, event_id):
        return event_views.certificates_pdf(self, request, event_id)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_players=Count("players", distinct=True))

    @admin.display(description="Players", ordering="_players")
    def player_count(self, event):
        return event._players

    @admin.display(description="Run it")
    def event_links(self, event):
        links = [
            (reverse("admin:tournament_event_control_room", args=[event.pk]), "Control room"),
            (reverse("admin:tournament_event_checkin_desk", args=[event.pk]), "Check-in desk"),
            (reverse("admin:tournament_event_eligibility_upload", args=[event.pk]), "Eligibility list"),
            (reverse("admin:tournament_player_changelist") + f"?event__id__exact={event.pk}", "Players"),
            (reverse("admin:tournament_event_first_round", args=[event.pk]), "First round"),
            (reverse("admin:tournament_event_plan_next_round", args=[event.pk]), "Plan next round"),
            (reverse("admin:tournament_round_changelist") + f"?event__id__exact={event.pk}", "Rounds"),
            (reverse("admin:tournament_event_live", args=[event.pk]), "Live round"),
            (reverse("admin:tournament_event_announce", args=[event.pk]), "Announce"),
            (reverse("admin:tournament_event_standings_csv", args=[event.pk]), "Standings CSV"),
        ]
        return format_html_join(" · ", '<a href="{}">{}</a>', links)

    @admin.display(description="Rules in force")
    def rules_summary(self, event):
        """The preset's options with the event's overrides applied (changed ones in bold)."""
        if event is None or event.pk is None:
            return "Shown after saving."
        try:
            rules = rules_for_event(event)
        except RulesRefused as refused:
            return format_html('<span class="errornote">{}</span>', refused)
        changed = set(event.rules_overrides or {}) | ({"target"} if event.target_score else set())
        rows = format_html_join(
            "", "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            ((option["name"],
              format_html("<b>{}</b>", getattr(rules, option["name"])) if option["name"] in changed
              else getattr(rules, option["name"]),
              option["doc"]) for option in type(rules).options()),
        )
        return format_html('<table class="rules-summary"><tbody>{}</tbody></table>', rows)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "organizers":
            kwargs["queryset"] = get_user_model().objects.filter(
                is_staff=True, groups__name=ORGANIZER_GROUP).distinct().order_by("username")
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        old_policy = form.initial.get("eligibility_policy") or []
        if old_policy != obj.eligibility_policy:  # as saved: Event.clean spells it out
            eligibility.record_policy_change(obj, request.user, old_policy)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not request.user.is_superuser:
            form.instance.organizers.add(request.user)  # whoever creates or edits an event keeps running it

    def _one_event(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one event.", messages.WARNING)
            return None
        return queryset.get()

    @admin.action(description="Build first round", permissions=["change"])
    def build_first_round(self, request, queryset):
        event = self._one_event(request, queryset)
        return redirect("admin:tournament_event_first_round", event.pk) if event else None

    @admin.action(description="Upload eligibility list (CSV)", permissions=["change"])
    def upload_eligibility_list(self, request, queryset):
        event = self._one_event(request, queryset)
        return redirect("admin:tournament_event_eligibility_upload", event.pk) if event else None

    @admin.action(description="Export standings (CSV)", permissions=["view"])
    def export_standings(self, request, queryset):
        event = self._one_event(request, queryset)
        return event_views.standings_response(event) if event else None
