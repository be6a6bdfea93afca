"""`{% notification_control %}`: the "Notifications" card of a student's page (their choices, and the button
that turns push on for this browser), so the page that shows it needs nothing in its own view."""

from __future__ import annotations

from django import template
from django.conf import settings

from notifications.kinds import LABELS
from notifications.subscriptions import choices_of

register = template.Library()


@register.inclusion_tag("notifications/_control.html", takes_context=True)
def notification_control(context) -> dict:
    request = context["request"]
    if not request.user.is_authenticated:
        return {"show": False}
    choice = choices_of(request.user)
    return {
        "show": True,
        "kinds": [(kind, label, kind not in choice.kinds_off) for kind, label in LABELS.items()],
        "mail_on": not choice.mail_off,
        "vapid_key": settings.VAPID_PUBLIC_KEY,
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
