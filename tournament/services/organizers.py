"""The Organizer group and which events a user may run.

An organizer is a staff user in the "Organizer" group; they run only the events whose ``organizers``
include them. Superusers run every event. The group's permissions are listed here (and frozen in
migration 0002, which creates the group on a fresh database, and in the migration that lets organizers
lift a login lockout).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db.models import Q, QuerySet

from tournament.models import Event

ORGANIZER_GROUP = "Organizer"

# model → actions an organizer needs. Scores (Hand, HandScore) are view-only: they change through the
# record-a-hand form, which writes an audit entry. Audit entries are never edited.
ORGANIZER_PERMISSIONS: dict[str, tuple[str, ...]] = {
    "event": ("add", "change", "view"),
    "eligibilityentry": ("add", "change", "delete", "view"),
    "player": ("change", "view"),
    "round": ("change", "view"),
    "table": ("view",),
    "seat": ("view",),
    "game": ("change", "view"),
    "hand": ("view",),
    "handscore": ("view",),
    "auditentry": ("view",),
}
# Outside the app: django-axes' failed-login records, so that an organizer can lift a student's lockout
# at the event (admin: Access attempts, delete).
ORGANIZER_LOGIN_PERMISSIONS: dict[str, tuple[str, ...]] = {"accessattempt": ("delete", "view")}


def organizer_permission_codenames() -> dict[str, set[str]]:
    """app label -> the codenames of the group's permissions in that app."""
    return {
        app_label: {f"{action}_{model}" for model, actions in permissions.items() for action in actions}
        for app_label, permissions in (("tournament", ORGANIZER_PERMISSIONS), ("axes", ORGANIZER_LOGIN_PERMISSIONS))
    }


def organizer_group() -> Group:
    """The Organizer group with exactly its permissions (created or repaired)."""
    group, _ = Group.objects.get_or_create(name=ORGANIZER_GROUP)
    wanted = Q()
    for app_label, codenames in organizer_permission_codenames().items():
        wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
    group.permissions.set(Permission.objects.filter(wanted))
    return group


def make_organizer(user, event: Event | None = None) -> None:
    """Give ``user`` what an organizer needs: staff status, the group, and optionally an event to run."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(organizer_group())
    if event is not None:
        event.organizers.add(user)


def events_run_by(user) -> QuerySet[Event]:
    """The events ``user`` may run: all for a superuser, those they organize for anyone else."""
    if not user.is_authenticated or not user.is_active:
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(organizers=user)


def runs_event(user, event: Event | int) -> bool:
    event_id = event if isinstance(event, int) else event.pk
    return events_run_by(user).filter(pk=event_id).exists()
