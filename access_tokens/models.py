"""Personal access tokens: what a student's bot presents instead of a password and a session.

Only a SHA-256 hash of a token is stored; the token itself is shown once, when it is made
(`access_tokens.services.create_token`). A revoked token stays listed (with when it was revoked) and
never authenticates again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=80, help_text="A label for the owner, e.g. the bot's name.")
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the token, hex.")
    prefix = models.CharField(max_length=12, help_text="The token's first characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
