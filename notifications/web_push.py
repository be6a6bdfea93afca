"""Sending one Web Push message with pywebpush (RFC 8291 encryption, RFC 8292 VAPID signature), signed with
the site's VAPID keys (settings `VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`, `VAPID_SUBJECT`). A subscription
its push service answers 404 or 410 for is gone: it is deleted."""

from __future__ import annotations

import json
import logging
import threading

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from notifications.models import PushSubscription

logger = logging.getLogger(__name__)

GONE = (404, 410)
TIME_TO_LIVE = 15 * 60  # seconds a push service keeps a message for a phone that is off: later it is stale
TIMEOUT = 10  # seconds to wait for a push service


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


_local = threading.local()


def _session() -> requests.Session:
    """This thread's HTTP session: its connections to a push service are kept open for the next push."""
    if getattr(_local, "session", None) is None:
        _local.session = requests.Session()
    return _local.session


def send(subscription: PushSubscription, payload: dict) -> bool:
    """Push `payload` (JSON) to one subscription; True if its push service accepted it."""
    try:
        webpush(subscription.info(), json.dumps(payload), vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=TIME_TO_LIVE, timeout=TIMEOUT,
                headers={"Urgency": "high"}, requests_session=_session())
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            logger.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
        else:
            logger.warning("push to subscription %s refused: %s", subscription.pk, error)
        return False
    except Exception:  # noqa: BLE001 - the push service unreachable (requests' errors): try mail instead
        logger.warning("push to subscription %s failed", subscription.pk, exc_info=True)
        return False
    return True
