"""Every organizer sees and changes only the events they organize and what hangs under them.

``EventScopedAdmin`` filters the change list, the change page, the foreign-key choices and the
object-level permissions by the path from a model to its event; custom admin views use
``event_for_organizer`` / ``scoped_object`` so another event's objects give 404, a missing model
permission 403.
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.http import Http404

from tournament.models import Event, Player, Round, Seat
from tournament.services.organizers import events_run_by

# Models an organizer may pick in a foreign-key select, with their path to the event.
EVENT_PATHS: dict[type[Model], str] = {Event: "", Player: "event", Round: "event", Seat: "table__round__event"}


class OnlyMineFilter(admin.RelatedOnlyFieldListFilter):
    """List filter on a foreign key showing only the values present in the organizer's own rows (the
    default filter would list every event in the database).

    A chosen value always filters and is always listed, even when it has no rows: Django's filter hides
    itself with fewer than two choices and then drops the chosen value, which showed another event's rows
    when the chosen event had none and exactly one other had some."""

    def has_output(self) -> bool:
        return super().has_output() or bool(self.lookup_val)

    def field_choices(self, field, request, model_admin):
        choices = super().field_choices(field, request, model_admin)
        model = field.remote_field.model
        listed = {str(pk) for pk, _ in choices}
        wanted = [value for value in self.lookup_val or [] if str(value) not in listed]
        if wanted and model in EVENT_PATHS:
            try:
                extra = list(in_events(model._default_manager.filter(pk__in=wanted), EVENT_PATHS[model],
                                       request.user))
            except (ValueError, TypeError, ValidationError):
                extra = []
            choices = [*choices, *((obj.pk, str(obj)) for obj in extra)]
        return choices


ONLY_MINE = OnlyMineFilter


def in_events(queryset: QuerySet, event_path: str, user) -> QuerySet:
    """``queryset`` narrowed to objects of the events ``user`` runs (everything for a superuser)."""
    if user.is_superuser:
        return queryset
    lookup = f"{event_path}__in" if event_path else "pk__in"
    return queryset.filter(**{lookup: events_run_by(user)})


class EventScopedAdmin(admin.ModelAdmin):
    event_path = "event"  # lookup from this model to its Event ("" for Event itself)

    def get_queryset(self, request):
        return in_events(super().get_queryset(request), self.event_path, request.user)

    def _in_scope(self, request, obj) -> bool:
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self._in_scope(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._in_scope(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._in_scope(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        model = db_field.remote_field.model
        if model in EVENT_PATHS:
            kwargs["queryset"] = in_events(model._default_manager.all(), EVENT_PATHS[model], request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


def require_permission(request, model: type[Model], action: str) -> None:
    """403 unless the user holds ``tournament.<action>_<model>``."""
    if not request.user.has_perm(f"tournament.{action}_{model._meta.model_name}"):
        raise PermissionDenied


def event_for_organizer(request, event_id, action: str = "change") -> Event:
    """The event, if the user may ``action`` events and runs this one; 404 if it is not theirs."""
    require_permission(request, Event, action)
    try:
        return events_run_by(request.user).get(pk=event_id)
    except (Event.DoesNotExist, ValueError, TypeError):
        raise Http404("No such event among yours.") from None


def scoped_object(request, model: type[Model], pk, event_path: str, action: str = "change", related=()):
    """``model`` #pk if it belongs to an event the user runs (404 otherwise) and they may ``action`` it."""
    require_permission(request, model, action)
    queryset = in_events(model._default_manager.select_related(*related), event_path, request.user)
    try:
        return queryset.get(pk=pk)
    except (model.DoesNotExist, ValueError, TypeError):
        raise Http404(f"No such {model._meta.verbose_name} among your events.") from None
