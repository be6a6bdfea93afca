"""Delivering notices: each student's choices first, then Web Push to every browser they subscribed, and
e-mail only when no push reached them (none subscribed, or every push service refused). Runs in the
background thread (`notifications.background`), never in a request or a move."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from notifications import mail, web_push
from notifications.kinds import Notice
from notifications.models import NotificationChoice, PushSubscription, SentNotice

logger = logging.getLogger(__name__)


def deliver(notices: list[Notice]) -> None:
    users = {n.user_id for n in notices}
    choices = {c.user_id: c for c in NotificationChoice.objects.filter(user_id__in=users)}
    for notice in notices:
        choice = choices.get(notice.user_id)
        if choice is not None and notice.kind in choice.kinds_off:
            continue
        try:
            deliver_one(notice, mail_off=bool(choice and choice.mail_off))
        except Exception:  # noqa: BLE001 - one student's broken address must not stop the others' notices
            logger.exception("notice %s to user %s failed", notice.kind, notice.user_id)


def deliver_one(notice: Notice, mail_off: bool) -> str | None:
    """Send one notice; returns the channel used, or None if it was sent before (its key) and is skipped."""
    try:
        with transaction.atomic():
            sent = SentNotice.objects.create(user_id=notice.user_id, event_id=notice.event_id, kind=notice.kind,
                                             key=notice.key)
    except IntegrityError:
        return None  # once only: told already
    channel = SentNotice.Channel.NONE
    if web_push.enabled():
        pushed = [web_push.send(sub, notice.payload())
                  for sub in PushSubscription.objects.filter(user_id=notice.user_id)]
        if any(pushed):
            channel = SentNotice.Channel.PUSH
    if channel == SentNotice.Channel.NONE and not mail_off and not mail.too_soon(notice):
        address = mail.address_of(notice.user_id)
        if address:
            mail.send(notice, address)
            channel = SentNotice.Channel.MAIL
    SentNotice.objects.filter(pk=sent.pk).update(channel=channel)
    return channel
