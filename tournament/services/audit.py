"""Audit entries: who changed what in an event, and why. Written by the services, never by views.

Every audited change (a round seated or started, a stage drawn, a game paused or finished, a player
replaced...) may change what a student should do next, so it also tells the event's "My event" pages
(`tournament.page_notices.notify_my_event_changed`, sent once the change commits)."""

from __future__ import annotations

from typing import Any

from tournament.models import AuditEntry, Event
from tournament.page_notices import notify_my_event_changed


def record(
    event: Event,
    actor,
    action: str,
    target: str,
    reason: str = "",
    changes: dict[str, Any] | None = None,
) -> AuditEntry:
    """Write one audit entry; call it inside the service's transaction so it stands or falls with it."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    notify_my_event_changed(event.pk)
    return AuditEntry.objects.create(
        event=event,
        actor=user,
        action=action,
        target=target[:200],
        reason=reason,
        changes=changes or {},
    )


def record_many(event: Event, actor, action: str, rows: list[tuple[str, dict[str, Any]]], reason: str = "") -> None:
    """One audit entry per (target, changes) row, in one insert (a bulk action on many players)."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    AuditEntry.objects.bulk_create([
        AuditEntry(event=event, actor=user, action=action, target=target[:200], reason=reason, changes=changes)
        for target, changes in rows
    ])
