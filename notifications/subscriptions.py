"""A student's push subscriptions and choices, as their page sends them: checked (never trusted), then
stored. A subscription is the JSON of the browser's `PushSubscription.toJSON()`: an endpoint URL of its
push service (https; `PUSH_ENDPOINT_SCHEMES` may allow http for a test's own push service) and two keys,
an uncompressed P-256 point and a 16-byte secret, base64url."""

from __future__ import annotations

import base64
import binascii
import json
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from notifications.kinds import KINDS
from notifications.models import NotificationChoice, PushSubscription

MAX_BODY = 4096
MAX_SUBSCRIPTIONS = 10  # per student: their phone, a tablet, a laptop... the oldest go first


class SubscriptionRefused(ValueError):
    """A subscription that cannot be stored; the message says why."""


def _key(value, name: str, size: int) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise SubscriptionRefused(f"keys.{name} must be a base64url text.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise SubscriptionRefused(f"keys.{name} is not base64url.") from error
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        raise SubscriptionRefused(f"keys.{name} is not a {'P-256 public key' if name == 'p256dh' else '16-byte secret'}.")
    return value.rstrip("=")


def _endpoint(value) -> str:
    schemes = tuple(getattr(settings, "PUSH_ENDPOINT_SCHEMES", ("https",)))
    if not isinstance(value, str) or len(value) > 1000:
        raise SubscriptionRefused("endpoint must be a URL of at most 1000 characters.")
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.hostname:
        raise SubscriptionRefused(f"endpoint must be a {' or '.join(schemes)} URL of a push service.")
    return value


def parse(body: bytes) -> dict:
    if len(body) > MAX_BODY:
        raise SubscriptionRefused("The subscription is too long.")
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise SubscriptionRefused("Send the subscription as JSON.") from error
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise SubscriptionRefused("A subscription has an endpoint and keys (p256dh, auth).")
    return {"endpoint": _endpoint(data.get("endpoint")), "p256dh": _key(data["keys"].get("p256dh"), "p256dh", 65),
            "auth": _key(data["keys"].get("auth"), "auth", 16)}


def save(user, body: bytes) -> PushSubscription:
    """Store the browser's subscription for `user` (an endpoint already stored moves to this user)."""
    fields = parse(body)
    with transaction.atomic():
        sub, _ = PushSubscription.objects.update_or_create(endpoint=fields.pop("endpoint"),
                                                           defaults={"user": user, **fields})
        older = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")[MAX_SUBSCRIPTIONS:]
        PushSubscription.objects.filter(pk__in=[s.pk for s in older]).delete()
    return sub


def remove(user, body: bytes) -> int:
    """Forget this browser's subscription (it turned notifications off here). Returns how many went."""
    try:
        data = json.loads(body) if len(body) <= MAX_BODY else None
    except (UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("endpoint"), str):
        raise SubscriptionRefused("Say which subscription to remove: {\"endpoint\": ...}.")
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=data["endpoint"]).delete()
    return deleted


def choices_of(user) -> NotificationChoice:
    return NotificationChoice.objects.filter(user=user).first() or NotificationChoice(user=user)


def save_choices(user, kinds_on, mail_on: bool) -> NotificationChoice:
    """Keep the kinds the student ticked (unknown names are ignored) and whether mail may stand in."""
    off = [kind for kind in KINDS if kind not in set(kinds_on)]
    choice, _ = NotificationChoice.objects.update_or_create(user=user, defaults={"kinds_off": off,
                                                                                 "mail_off": not mail_on})
    return choice
