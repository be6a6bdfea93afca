"""A first round's seating as previewed, kept on the server until the organizer confirms it."""

from django.conf import settings
from django.db import models


class RoundDraft(models.Model):
    """The seating an organizer previewed for round 1: one per event, replaced by each new preview.

    ``tables`` lists player ids per table (``null`` for a bot seat). ``version`` goes up with every new
    preview and every swap, and the confirm form carries it, so confirming applies exactly the seating
    the organizer saw, never one changed since in another tab or by another organizer.
    """

    event = models.OneToOneField("tournament.Event", on_delete=models.CASCADE, related_name="round_draft")
    version = models.PositiveIntegerField(default=1)
    seed = models.BigIntegerField()
    source = models.CharField(max_length=20)
    fill_with_bots = models.BooleanField(default=False)
    use_seeding = models.BooleanField(default=False)
    tables = models.JSONField(default=list)
    moved = models.JSONField(default=list, help_text="Players moved by a swap after the shuffle.")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.event} – round 1 draft v{self.version}"
