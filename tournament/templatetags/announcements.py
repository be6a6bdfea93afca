"""``{% latest_announcement event %}``: the event's latest announcement as a banner (hidden when there is
none), kept up to date by static/js/announcements.js over the page's event socket. Read from the event's
own row (`Event.announcement`, a copy of the newest), so the banner costs the page no query."""

from django import template

register = template.Library()


@register.inclusion_tag("tournament/_announcement.html")
def latest_announcement(event):
    shown = None
    if event is not None and event.announcement:
        shown = {"text": event.announcement, "created_at": event.announced_at}
    return {"event": event, "announcement": shown}
