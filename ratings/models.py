"""A rating per competitor and game family, and its history: one row per rated game.

A competitor is a person, a person's bot (seats played through their access token) or a house bot of the
site (a bot seat, by bot kind), in one game family (UNO or Ocho: `ratings.families`). People and bots are
rated apart (different competitors) even when the same user is behind both. `mu` and `sigma` are
openskill's Plackett-Luce rating and its uncertainty; the ladder orders by the conservative estimate
`mu - 3 sigma` (`ordinal`). The rows are derived: `manage.py recompute_ratings` rebuilds them all from the
stored live games (`ratings.rating_updates`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Competitor(models.Model):
    class Kind(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Bot"
        HOUSE_BOT = "house_bot", "House bot"

    family = models.CharField(max_length=10)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="rated_as")
    bot_kind = models.CharField(max_length=20, blank=True, help_text="A house bot's kind ('heuristic').")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["family", "kind", "user"], condition=Q(user__isnull=False),
                                    name="unique_rated_user"),
            models.UniqueConstraint(fields=["family", "bot_kind"], condition=Q(kind="house_bot"),
                                    name="unique_rated_house_bot"),
            models.CheckConstraint(condition=(Q(kind="house_bot") & Q(user__isnull=True) & ~Q(bot_kind=""))
                                   | (~Q(kind="house_bot") & Q(user__isnull=False) & Q(bot_kind="")),
                                   name="competitor_kind_matches_links"),
        ]
        indexes = [models.Index(fields=["family", "kind"], name="competitor_ladder")]

    def __str__(self) -> str:
        return f"{self.name} ({self.family})"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def name(self) -> str:
        if self.kind == self.Kind.HOUSE_BOT:
            return f"House bot ({self.bot_kind})"
        person = self.user.get_full_name() or self.user.get_username()
        return f"{person}'s bot" if self.kind == self.Kind.BOT else person


class RatingChange(models.Model):
    """A competitor's rating after one rated game (`mu`, `sigma`) and before it, with its place there."""

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="changes")
    live_game = models.ForeignKey("games.LiveGame", on_delete=models.CASCADE, related_name="rating_changes")
    ended_at = models.DateTimeField(help_text="When the game's last change was stored: the order games are rated in.")
    place = models.PositiveSmallIntegerField(help_text="1-based finishing place; tied competitors share it.")
    competitors = models.PositiveSmallIntegerField(help_text="How many competitors the game was rated among.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["ended_at", "live_game_id"]
        constraints = [
            models.UniqueConstraint(fields=["competitor", "live_game"], name="unique_rating_change"),
        ]
        indexes = [models.Index(fields=["competitor", "ended_at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.competitor} after {self.live_game_id}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def change(self) -> float:
        return self.ordinal - (self.mu_before - 3 * self.sigma_before)
