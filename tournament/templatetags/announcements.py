"""``{% latest_announcement event %}``: the event's latest announcement as a banner (hidden when there is
none), kept up to date by static/js/announcements.js over the page's event socket."""

from django import template

from tournament.services.announcements import latest

register = template.Library()


@register.inclusion_tag("tournament/_announcement.html")
def latest_announcement(event):
    return {"event": event, "announcement": latest(event.pk) if event is not None else None}
