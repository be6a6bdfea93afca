"""Personal access tokens: what a student's bot presents instead of a password and a session.

Only a SHA-256 hash of a token is stored; the token itself is shown once, when it is made
(`access_tokens.services.create_token`). A revoked token stays listed (with when it was revoked) and
never authenticates again.

A token carries scopes (`SCOPES`): what its holder may do with it. Only two exist, both about the
owner's own tables: reading them (the API's list, a table socket showing the owner's seat) and playing
at them (moves through that socket). No scope opens an organizer's or the admin's pages or sockets.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

READ_TABLES = "tables:read"
PLAY_TABLES = "tables:play"
SCOPES = {
    READ_TABLES: "Read my tables: list them (/api/my-tables/) and watch my seat at them",
    PLAY_TABLES: "Play at my tables: make moves at my seat",
}


class AccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=80, help_text="A label for the owner, e.g. the bot's name.")
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token, hex.")
    prefix = models.CharField(max_length=12, help_text="The token's first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    scopes = models.CharField(max_length=100, help_text="What the token may do: scopes separated by spaces.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def scope_list(self) -> list[str]:
        return [scope for scope in self.scopes.split() if scope in SCOPES]

    def allows(self, scope: str) -> bool:
        return scope in self.scope_list

    @property
    def scope_labels(self) -> list[str]:
        return [SCOPES[scope] for scope in self.scope_list]
