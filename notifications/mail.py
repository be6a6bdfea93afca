"""E-mail for students whose phones get no push: the same notices through Django's mail (console by default,
SMTP from the environment), at most one mail of a kind per student and event every
`NOTIFICATION_MAIL_INTERVAL` seconds, each with a signed link that stops them all without logging in (also
in the `List-Unsubscribe` header, with RFC 8058's one-click POST)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notifications.kinds import Notice
from notifications.models import NotificationChoice, SentNotice
from tournament.models import VerifiedEmail

SALT = "notifications.mail-off"


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps(user_id, salt=SALT, compress=True)


def user_of_token(token: str) -> int | None:
    """The user a stop link was made for; None for a link that was not made here (or was changed)."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def stop_mail(user_id: int) -> None:
    if get_user_model().objects.filter(pk=user_id).exists():  # an account deleted since gets no mail anyway
        NotificationChoice.objects.update_or_create(user_id=user_id, defaults={"mail_off": True})


def address_of(user_id: int) -> str:
    """The student's address if they proved they receive mail there (and it is still theirs), else ""."""
    verified = VerifiedEmail.objects.filter(user_id=user_id).select_related("user").first()
    if verified is None or not verified.user.email or verified.user.email.lower() != verified.email.lower():
        return ""
    return verified.user.email


def too_soon(notice: Notice) -> bool:
    """A mail of this kind went to this student for this event within the interval."""
    since = timezone.now() - timedelta(seconds=settings.NOTIFICATION_MAIL_INTERVAL)
    return SentNotice.objects.filter(user_id=notice.user_id, event_id=notice.event_id, kind=notice.kind,
                                     channel=SentNotice.Channel.MAIL, sent_at__gte=since).exists()


def send(notice: Notice, address: str) -> None:
    site = settings.SITE_URL.rstrip("/")
    stop = site + reverse("notifications:mail_off", args=[unsubscribe_token(notice.user_id)])
    body = render_to_string("notifications/mail.txt", {"notice": notice, "url": site + notice.url, "stop": stop})
    message = EmailMessage(subject=notice.title, body=body, to=[address],
                           headers={"List-Unsubscribe": f"<{stop}>",
                                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    message.send()
