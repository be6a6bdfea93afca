"""An organizer's announcement to an event: stored (and audited), then pushed once the transaction commits
to the event's announcement group, which every table socket (`LiveGame.announce_group`) and every event
page's socket joins; a page loaded later shows the latest one while it runs.

An announcement runs until an organizer ends it (`end`), until its end time (`ends_at`, given when it is
posted) passes, or until a newer one replaces it. Ending one is pushed as the same message with
``"ended": true``, so every open page and table drops it at once; one that passes its end time is dropped
by the pages themselves (they are sent the time), and the server never sends it as running again."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from config.group_notices import send_after_commit
from tournament import signals
from tournament.models import Announcement, Event
from tournament.models.announcements import ANNOUNCEMENT_MAX_LENGTH
from tournament.page_notices import event_announce_group
from tournament.scores_version import record_change
from tournament.services import audit

logger = logging.getLogger(__name__)

ANNOUNCEMENT = "announcement"  # dispatched to the consumers' `announcement` handlers


class AnnouncementError(ValueError):
    """An announcement that cannot be made or ended; the message says why."""


def announce(event: Event, text: str, actor, ends_at: datetime | None = None) -> Announcement:
    """Store `text` as the event's latest announcement and push it to every page and table of the event;
    `ends_at`: when it stops showing by itself (None: when an organizer ends it)."""
    text = " ".join((text or "").split())
    if not text:
        raise AnnouncementError("Write the announcement first.")
    if len(text) > ANNOUNCEMENT_MAX_LENGTH:
        raise AnnouncementError(f"An announcement is at most {ANNOUNCEMENT_MAX_LENGTH} characters "
                                f"(this one has {len(text)}).")
    if ends_at is not None and ends_at <= timezone.now():
        raise AnnouncementError("The end time of an announcement must be later than now.")
    with transaction.atomic():
        made = Announcement.objects.create(event=event, text=text, ends_at=ends_at,
                                           author=actor if actor and actor.is_authenticated else None)
        _show(event, made)
        changes = {"text": text}
        if ends_at is not None:
            changes["ends_at"] = ends_at.isoformat()
        audit.record(event, actor, "event.announce", f"Announcement to {event}", changes=changes)
        record_change(event.pk)  # stored pages of the event show the new banner
        message = as_message(made)
        send_after_commit([(event_announce_group(event.pk), message)], what="an announcement")
        signals.announced.send(sender=Event, announcement=made)
    return made


def end(announcement: Announcement, actor) -> Announcement:
    """End `announcement` now: every page and table of its event drops it at once; it stays listed with
    who posted and who ended it."""
    with transaction.atomic():
        made = Announcement.objects.select_for_update().select_related("event").get(pk=announcement.pk)
        if made.ended_at is not None:
            raise AnnouncementError("That announcement has already been ended.")
        made.ended_at, made.ended_by = timezone.now(), actor if actor and actor.is_authenticated else None
        made.save(update_fields=["ended_at", "ended_by"])
        event = made.event
        if Event.objects.filter(pk=event.pk, shown_announcement=made).exists():
            _show(event, None)
        audit.record(event, actor, "event.announcement_end", f"Announcement to {event}",
                     changes={"text": made.text, "posted_by": str(made.author or "")})
        record_change(event.pk)  # stored pages of the event lose the banner
        message = as_message(made)
        send_after_commit([(event_announce_group(event.pk), message)], what="an announcement")
    announcement.ended_at, announcement.ended_by = made.ended_at, made.ended_by
    return made


def _show(event: Event, made: Announcement | None) -> None:
    """Copy `made` (None: nothing) onto the event's row, which its pages render the banner from."""
    shown = {"announcement": made.text if made else "", "announced_at": made.created_at if made else None,
             "announcement_ends_at": made.ends_at if made else None, "shown_announcement": made}
    Event.objects.filter(pk=event.pk).update(**shown)
    for name, value in shown.items():
        setattr(event, name, value)


def latest(event_id: int) -> Announcement | None:
    """The event's latest announcement, running or not."""
    return Announcement.objects.filter(event_id=event_id).order_by("-created_at", "-pk").first()


def running(event_id: int) -> Announcement | None:
    """The announcement the event's pages show now: the latest, unless it is over."""
    made = latest(event_id)
    return made if made is not None and not made.is_over() else None


def recent(event_id: int, limit: int = 20) -> list[Announcement]:
    """The event's ``limit`` newest announcements, newest first, each with ``shown_state`` (one of
    ``Announcement.State``), who posted it and who ended it (one query)."""
    made = list(Announcement.objects.filter(event_id=event_id).select_related("author", "ended_by")[:limit])
    now, latest_pk = timezone.now(), made[0].pk if made else None
    for one in made:
        one.shown_state = one.state(latest_pk, now)
    return made


def latest_at_table(live_id: int) -> Announcement | None:
    """The latest announcement of the event a live table plays for (None for other tables)."""
    return (Announcement.objects.filter(event__rounds__tables__games__live__pk=live_id)
            .order_by("-created_at", "-pk").first())


def as_message(made: Announcement | None) -> dict | None:
    """`made` as the sockets send it: ``ended`` when it is over (ended or past its end time), so that a
    page that still shows it drops it; None when there is none."""
    if made is None:
        return None
    return {"type": ANNOUNCEMENT, "id": made.pk, "text": made.text, "at": made.created_at.isoformat(),
            "ends_at": made.ends_at.isoformat() if made.ends_at else None, "ended": made.is_over()}
