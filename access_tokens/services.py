"""Making, revoking and checking personal access tokens (the only code that touches their rows)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from access_tokens.models import AccessToken

TOKEN_PREFIX = "uno_"
MAX_ACTIVE_TOKENS = 10
MAX_TOKEN_CHARS = 200  # longer: not one of ours, refused before hashing
LAST_USED_RESOLUTION = timedelta(minutes=1)  # `last_used_at` is written at most this often per token


class TokenError(ValueError):
    """A token that cannot be made or revoked; the message says why."""


@dataclass(frozen=True)
class NewToken:
    token: AccessToken
    secret: str  # shown to the owner once, never stored


def hash_token(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(user, name: str) -> NewToken:
    """A new token for `user` labelled `name`; the secret is returned once and only its hash is kept."""
    name = (name or "").strip()
    if not name:
        raise TokenError("give the token a name, e.g. your bot's")
    with transaction.atomic():
        active = AccessToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if len(active) >= MAX_ACTIVE_TOKENS:
            raise TokenError(f"you have {MAX_ACTIVE_TOKENS} active tokens: revoke one first")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(user=user, name=name[:80], token_hash=hash_token(secret),
                                           prefix=secret[:len(TOKEN_PREFIX) + 4])
    return NewToken(token, secret)


def revoke_token(user, token_id: int) -> AccessToken:
    """Revoke one of `user`'s tokens (revoking twice is harmless); `TokenError` if it is not theirs."""
    with transaction.atomic():
        token = AccessToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise TokenError("no such token")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def authenticate(secret: str | None) -> AccessToken | None:
    """The active token `secret` is (with its active user loaded), or None; records when it was used."""
    if not secret or len(secret) > MAX_TOKEN_CHARS or not secret.isascii():
        return None
    token = (AccessToken.objects.select_related("user")
             .filter(token_hash=hash_token(secret), revoked_at__isnull=True).first())
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
