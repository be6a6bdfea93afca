"""Proving an account's e-mail address: a signed link mailed at sign-up (and again on request).

The token is Django's password-reset machinery with its own salt; its hash covers the account's address
and the address verified so far, so a link stops working once used or once the account's address
changes. Mail goes through the configured backend (SMTP in production, the console by default).
"""

from __future__ import annotations

import logging
import smtplib

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import (
    url_has_allowed_host_and_scheme,
    urlencode,
    urlsafe_base64_decode,
    urlsafe_base64_encode,
)

from tournament.models import VerifiedEmail
from tournament.services import mail_pacing

log = logging.getLogger(__name__)

RESEND_SECONDS = mail_pacing.INTERVAL_SECONDS  # one link a minute per account: "send it again" cannot flood anyone's mailbox


class EmailVerificationError(ValueError):
    """The address cannot be verified or a link cannot be sent; the message says why."""


class EmailVerificationTokens(PasswordResetTokenGenerator):
    key_salt = "tournament.services.email_verification.EmailVerificationTokens"

    def _make_hash_value(self, user, timestamp) -> str:
        verified = VerifiedEmail.objects.filter(user=user).values_list("email", flat=True).first() or ""
        return f"{user.pk}|{user.email}|{verified}|{timestamp}"


tokens = EmailVerificationTokens()


def verified_email(user) -> str:
    """The account's address if it has been verified (and is still the account's address), else ""."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.email:
        return ""
    verified = VerifiedEmail.objects.filter(user=user).values_list("email", flat=True).first() or ""
    return verified if verified.lower() == user.email.strip().lower() else ""


def _verified_elsewhere(user) -> bool:
    return VerifiedEmail.objects.filter(email__iexact=user.email.strip()).exclude(user=user).exists()


def verification_path(user, next_path: str = "") -> str:
    """The path of the link that verifies ``user``'s current address; with ``next_path`` (a path on this
    site, such as the event's register page the student started from) the link leads there afterwards."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    path = reverse("verify_email_confirm", args=[uid, tokens.make_token(user)])
    return f"{path}?{urlencode({'next': next_path})}" if local_path(next_path) else path


def local_path(path: str) -> bool:
    """``path`` is a path on this site ("/events/x/register/"), never another site's address."""
    return path.startswith("/") and url_has_allowed_host_and_scheme(path, allowed_hosts=set())


def send_link(user, site_url: str, next_path: str = "") -> None:
    """Mail ``user`` a link verifying their address; ``site_url`` is the site's address (no trailing /);
    ``next_path``: where the link leads once the address is verified (see ``verification_path``).

    Raises ``EmailVerificationError`` when there is nothing to verify or the mail cannot be sent.
    """
    if not user.email:
        raise EmailVerificationError("Your account has no e-mail address to verify.")
    if verified_email(user):
        raise EmailVerificationError(f"{user.email} is already verified.")
    if _verified_elsewhere(user):
        raise EmailVerificationError(f"{user.email} is already verified by another account.")
    if not mail_pacing.may_send("email-verification", user, RESEND_SECONDS):
        raise EmailVerificationError(
            "A link was sent less than a minute ago: look for it (also in the spam folder), "
            "or send it again in a minute."
        )
    context = {"user": user, "link": site_url.rstrip("/") + verification_path(user, next_path)}
    subject = render_to_string("registration/verify_email_subject.txt", context).strip()
    body = render_to_string("registration/verify_email_email.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except (smtplib.SMTPException, OSError) as error:
        log.warning("verification mail to user %s failed: %s", user.pk, error)
        raise EmailVerificationError(
            "The mail with your link could not be sent just now; try again in a few minutes."
        ) from error


def verify(uidb64: str, token: str):
    """Mark the address of the link's account verified; return the account, or raise saying why not."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = get_user_model().objects.get(pk=pk)
    except (ValueError, TypeError, OverflowError, get_user_model().DoesNotExist):
        user = None
    if user is None or not tokens.check_token(user, token):
        raise EmailVerificationError(
            "This link is not valid: it was already used, it is older than a few days, "
            "or the account's address changed since it was sent."
        )
    if _verified_elsewhere(user):
        raise EmailVerificationError(f"{user.email} is already verified by another account.")
    mark_verified(user)
    return user


def mark_verified(user) -> None:
    """Record ``user``'s current address as verified (the demo's students, and tests, start this way)."""
    with transaction.atomic():
        VerifiedEmail.objects.update_or_create(
            user=user, defaults={"email": user.email.strip(), "verified_at": timezone.now()}
        )
