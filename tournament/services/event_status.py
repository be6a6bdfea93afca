"""An event's own switches, turned by its organizers from the control room: open registration, open or
close check-in, mark the event finished. Each runs with the event row locked and leaves an audit entry."""

from __future__ import annotations

from django.db import transaction

from tournament import signals
from tournament.models import Event
from tournament.services import audit


class EventStatusError(ValueError):
    """The switch does not apply to the event now; the message says why."""


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def open_registration(event: Event, actor) -> Event:
    """A draft event opens its registration (students see it and register within its dates, if any)."""
    with transaction.atomic():
        event = _locked(event)
        if event.status != Event.Status.DRAFT:
            raise EventStatusError(f"{event} is {event.get_status_display().lower()}, not a draft: "
                                   "its registration is already open or over.")
        event.status = Event.Status.REGISTRATION
        event.save(update_fields=["status"])
        audit.record(event, actor, "event.open_registration", f"Event {event}",
                     changes={"status": [Event.Status.DRAFT, Event.Status.REGISTRATION]})
    return event


def set_checkin(event: Event, actor, is_open: bool) -> Event:
    """Open (or close) check-in: while open, registered players check themselves in on their phones."""
    with transaction.atomic():
        event = _locked(event)
        if event.status in (Event.Status.DRAFT, Event.Status.FINISHED):
            raise EventStatusError(f"{event} is {event.get_status_display().lower()}: check-in cannot change.")
        if event.checkin_open == is_open:
            raise EventStatusError(f"Check-in is already {'open' if is_open else 'closed'}.")
        event.checkin_open = is_open
        event.save(update_fields=["checkin_open"])
        audit.record(event, actor, "event.open_checkin" if is_open else "event.close_checkin", f"Event {event}",
                     changes={"checkin_open": [not is_open, is_open]})
        if is_open:
            signals.checkin_opened.send(sender=Event, event=event)
    return event


def finish_event(event: Event, actor) -> Event:
    """Mark a running event finished (its results stand; nobody joins or is reinstated any more)."""
    with transaction.atomic():
        event = _locked(event)
        if event.status != Event.Status.RUNNING:
            raise EventStatusError(f"{event} is {event.get_status_display().lower()}, not running.")
        event.status = Event.Status.FINISHED
        event.checkin_open = False
        event.save(update_fields=["status", "checkin_open"])
        audit.record(event, actor, "event.finish", f"Event {event}",
                     changes={"status": [Event.Status.RUNNING, Event.Status.FINISHED]})
    return event
