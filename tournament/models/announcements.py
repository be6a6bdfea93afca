from django.conf import settings
from django.db import models

ANNOUNCEMENT_MAX_LENGTH = 500


class Announcement(models.Model):
    """An organizer's message to everyone at an event: pushed to every table and event page at once, and
    kept so a page loaded later shows the latest (`tournament.services.announcements`)."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=ANNOUNCEMENT_MAX_LENGTH)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["event", "-created_at"], name="announcement_event_recent")]

    def __str__(self) -> str:
        return self.text[:60]
