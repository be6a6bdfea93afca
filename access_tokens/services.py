"""Making, revoking and checking personal access tokens (the only code that touches their rows).

Revoking a token (one, or all of an account's when its password changes) also ends the sockets open
with it, after the revocation commits (`access_tokens.revocation`)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from access_tokens import revocation
from access_tokens.models import SCOPES, AccessToken

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


def create_token(user, name: str, scopes=tuple(SCOPES)) -> NewToken:
    """A new token for `user` labelled `name`, allowed `scopes` (`models.SCOPES`; default: all); the
    secret is returned once and only its hash is kept."""
    name = (name or "").strip()
    if not name:
        raise TokenError("give the token a name, e.g. your bot's")
    scopes = [scope for scope in SCOPES if scope in set(scopes)]
    if not scopes:
        raise TokenError("choose what the token may do (at least one)")
    with transaction.atomic():
        active = AccessToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if len(active) >= MAX_ACTIVE_TOKENS:
            raise TokenError(f"you have {MAX_ACTIVE_TOKENS} active tokens: revoke one first")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(user=user, name=name[:80], token_hash=hash_token(secret),
                                           prefix=secret[:len(TOKEN_PREFIX) + 4], scopes=" ".join(scopes))
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
        revocation.end_sockets_on_commit([token.pk])
    return token


def revoke_all_tokens(user) -> int:
    """Revoke every active token of `user` (their password changed or was reset) and end their sockets;
    how many were revoked."""
    with transaction.atomic():
        ids = list(AccessToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
                   .values_list("pk", flat=True))
        AccessToken.objects.filter(pk__in=ids).update(revoked_at=timezone.now())
        revocation.end_sockets_on_commit(ids)
    return len(ids)


def end_account_sockets(user) -> None:
    """End the sockets open with any of `user`'s tokens (the account was deactivated: its tokens stop
    authenticating while it is, `authenticate`, and work again if it is activated again)."""
    ids = list(AccessToken.objects.filter(user=user, revoked_at__isnull=True).values_list("pk", flat=True))
    revocation.end_sockets_on_commit(ids)


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
