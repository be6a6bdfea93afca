"""``{% latest_announcement event %}``: the event's running announcement as a banner (hidden when there is
none, or when its end time has passed), kept up to date by static/js/announcements.js over the page's event
socket. Read from the event's own row (`Event.announcement` and its companions, a copy of the shown one), so
the banner costs the page no query. ``{% showing_announcement event as shown %}`` gives the same announcement
to an organizer's page (the control room's line with its End button)."""

from django import template
from django.utils import timezone

register = template.Library()


@register.simple_tag
def showing_announcement(event) -> dict | None:
    """``{% showing_announcement event as shown %}``: the announcement the event's pages show now (``id``,
    ``text``, ``created_at``, ``ends_at``), or None."""
    if event is None or not event.announcement or (
            event.announcement_ends_at is not None and event.announcement_ends_at <= timezone.now()):
        return None
    return {"id": event.shown_announcement_id, "text": event.announcement, "created_at": event.announced_at,
            "ends_at": event.announcement_ends_at}


@register.inclusion_tag("tournament/_announcement.html")
def latest_announcement(event):
    return {"event": event, "announcement": showing_announcement(event)}
