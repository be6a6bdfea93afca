"""What the site keeps to tell students: their browsers' push subscriptions, the kinds they turned off (and
whether they take mail), and what was sent (for "once only" notices and the mail's rate)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the endpoint its push service gave it, and its keys)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key, base64url.")
    auth = models.CharField(max_length=40, help_text="The browser's authentication secret, base64url.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} at {self.endpoint[:60]}"

    def info(self) -> dict:
        """As pywebpush takes it (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class NotificationChoice(models.Model):
    """A student's choices: the kinds they do not want, and whether mail may stand in for push."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_choice")
    kinds_off = models.JSONField(default=list, blank=True)
    mail_off = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"notification choices of {self.user}"


class SentNotice(models.Model):
    """A notice sent (by push, by mail, or by neither when nothing could reach the student)."""

    class Channel(models.TextChoices):
        PUSH = "push", "Web Push"
        MAIL = "mail", "E-mail"
        NONE = "none", "Not sent"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    event_id = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=20)
    key = models.CharField(max_length=100, blank=True)
    channel = models.CharField(max_length=4, choices=Channel.choices, default=Channel.NONE)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "event_id", "kind", "-sent_at"], name="sent_notice_rate")]
        constraints = [models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""),
                                               name="sent_notice_once")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} by {self.channel}"
