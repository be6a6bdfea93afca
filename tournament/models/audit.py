from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    """Who changed what and why: written by the services for every organizer action that alters play."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, help_text="What was changed, in words.")
    reason = models.TextField(blank=True)
    changes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action}: {self.target}"
