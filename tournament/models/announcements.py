from django.conf import settings
from django.db import models
from django.utils import timezone

ANNOUNCEMENT_MAX_LENGTH = 500


class Announcement(models.Model):
    """An organizer's message to everyone at an event: pushed to every table and event page at once, and
    kept so a page loaded later shows the latest while it runs (`tournament.services.announcements`). It
    stops showing when an organizer ends it, when its end time passes, or when a newer one replaces it."""

    class State:
        SHOWING, ENDED, EXPIRED, REPLACED = "showing", "ended", "expired", "replaced"

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(max_length=ANNOUNCEMENT_MAX_LENGTH)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="When it stops showing by itself (empty: "
                                                                    "when an organizer ends it).")
    ended_at = models.DateTimeField(null=True, blank=True, help_text="When an organizer ended it.")
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["event", "-created_at"], name="announcement_event_recent")]

    def __str__(self) -> str:
        return self.text[:60]

    def is_over(self, now=None) -> bool:
        """Ended by an organizer, or past its end time: shown nowhere any more."""
        return self.ended_at is not None or (self.ends_at is not None and self.ends_at <= (now or timezone.now()))

    def state(self, latest_pk: int | None, now=None) -> str:
        """One of `State`: `latest_pk` is the event's latest announcement (a newer one replaces this)."""
        if self.ended_at is not None:
            return self.State.ENDED
        if self.is_over(now):
            return self.State.EXPIRED
        return self.State.SHOWING if latest_pk in (None, self.pk) else self.State.REPLACED
