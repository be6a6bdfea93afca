"""An organizer's announcement to an event: stored (and audited), then pushed once the transaction commits
to the event's announcement group, which every table socket (`LiveGame.announce_group`) and every event
page's socket joins; a page loaded later shows the latest one."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tournament.models import Announcement, Event
from tournament.models.announcements import ANNOUNCEMENT_MAX_LENGTH
from tournament.page_notices import event_announce_group
from tournament.scores_version import record_change
from tournament.services import audit

logger = logging.getLogger(__name__)

ANNOUNCEMENT = "announcement"  # dispatched to the consumers' `announcement` handlers


class AnnouncementError(ValueError):
    """An announcement that cannot be made; the message says why."""


def announce(event: Event, text: str, actor) -> Announcement:
    """Store `text` as the event's latest announcement and push it to every page and table of the event."""
    text = " ".join((text or "").split())
    if not text:
        raise AnnouncementError("Write the announcement first.")
    if len(text) > ANNOUNCEMENT_MAX_LENGTH:
        raise AnnouncementError(f"An announcement is at most {ANNOUNCEMENT_MAX_LENGTH} characters "
                                f"(this one has {len(text)}).")
    with transaction.atomic():
        made = Announcement.objects.create(event=event, text=text, author=actor if actor and actor.is_authenticated
                                           else None)
        Event.objects.filter(pk=event.pk).update(announcement=made.text, announced_at=made.created_at)
        event.announcement, event.announced_at = made.text, made.created_at
        audit.record(event, actor, "event.announce", f"Announcement to {event}", changes={"text": text})
        record_change(event.pk)  # stored pages of the event show the new banner
        message = as_message(made)
        transaction.on_commit(lambda: _send(event.pk, message))
    return made


def latest(event_id: int) -> Announcement | None:
    return Announcement.objects.filter(event_id=event_id).order_by("-created_at", "-pk").first()


def latest_at_table(live_id: int) -> Announcement | None:
    """The latest announcement of the event a live table plays for (None for other tables)."""
    return (Announcement.objects.filter(event__rounds__tables__games__live__pk=live_id)
            .order_by("-created_at", "-pk").first())


def as_message(made: Announcement | None) -> dict | None:
    if made is None:
        return None
    return {"type": ANNOUNCEMENT, "text": made.text, "at": made.created_at.isoformat()}


def _send(event_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(event_announce_group(event_id), message)
    except Exception:  # noqa: BLE001 - stored: pages show it when loaded or reconnected
        logger.exception("could not push the announcement of event %s", event_id)
