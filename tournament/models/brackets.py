"""A bracket round's own data: its stages (settings per stage), its seeded field, and tiebreak draws.

Who sits where stays in ``Table``/``Seat`` (tables carry their stage number); who advanced is always
derived from the games' hand scores, so a corrected hand moves the bracket with it.
"""

from django.conf import settings
from django.db import models

from tournament.generators.brackets import GAME_FORMATS


class BracketStage(models.Model):
    class TieMethod(models.TextChoices):
        DRAW = "draw", "Random draw (seeded and recorded)"
        HAND = "hand", "Tiebreak hand (the organizer records who won it)"

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="bracket_stages")
    number = models.PositiveSmallIntegerField()
    planned_field = models.PositiveSmallIntegerField(help_text="Players the plan seats in this stage (byes included).")
    planned_tables = models.PositiveSmallIntegerField()
    byes = models.PositiveSmallIntegerField(default=0, help_text="Highest seeds who skip this stage.")
    advance_per_table = models.PositiveSmallIntegerField(
        help_text="How many of each table go on to the next stage (1 at the final: the champion).")
    is_final = models.BooleanField(default=False)
    game_format = models.CharField(max_length=20, choices=list(GAME_FORMATS.items()), default="standard")
    tie_method = models.CharField(max_length=10, choices=TieMethod.choices, default=TieMethod.DRAW)
    bye_players = models.JSONField(default=list, blank=True, help_text="Player ids with a bye, once built.")
    built_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_bracket_stage")]

    def __str__(self) -> str:
        return f"{self.round}, stage {self.number}"


class BracketEntry(models.Model):
    """A player in a bracket's field with their seed (1 = strongest) and why they are in it."""

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="bracket_entries")
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, related_name="bracket_entries")
    seed = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    replaced = models.ForeignKey("tournament.Player", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", help_text="The withdrawn player this one replaced.")

    class Meta:
        ordering = ["round", "seed"]
        verbose_name_plural = "bracket entries"
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_bracket_entry_per_player"),
            models.UniqueConstraint(fields=["round", "seed"], name="one_bracket_entry_per_seed"),
        ]

    def __str__(self) -> str:
        return f"Seed {self.seed}: {self.player}"


class TiebreakDraw(models.Model):
    """How players equal on every documented tiebreak were ordered at a cut: a seeded random draw (the
    seed replays it) or a tiebreak hand whose order the organizer recorded. Stage 0 is the field cut."""

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="tiebreak_draws")
    stage = models.PositiveSmallIntegerField(help_text="0: the cut choosing the bracket's field.")
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    players_key = models.CharField(
        max_length=64, help_text="SHA-256 (hex) of the tied player ids, sorted, comma separated: names a tie of "
                                 "any size (the ids themselves are in the order).")
    method = models.CharField(max_length=10, choices=BracketStage.TieMethod.choices)
    seed = models.BigIntegerField(null=True, blank=True)
    order = models.JSONField(help_text="The tied players' ids, best first.")
    places = models.PositiveSmallIntegerField(help_text="How many of them went on.")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "stage", "table_number"]
        constraints = [models.UniqueConstraint(fields=["round", "stage", "table_number", "players_key"],
                                               name="one_draw_per_tie")]

    def __str__(self) -> str:
        return f"Tiebreak ({self.get_method_display()}) in {self.round}, stage {self.stage}"


class OpenPlaceDecision(models.Model):
    """At a bracket table where fewer players took part than places go on, what the organizer decided for one
    open place: a no-show of that table sent on (``player``), or the place left empty (a bye, ``player`` null)."""

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="open_place_decisions")
    stage = models.PositiveSmallIntegerField()
    table_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey("tournament.Player", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="+", help_text="The no-show sent on; empty: the place is a bye.")
    reason = models.CharField(max_length=200)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "stage", "table_number", "pk"]
        constraints = [models.UniqueConstraint(fields=["round", "stage", "table_number", "player"],
                                               name="one_open_place_decision_per_player")]

    def __str__(self) -> str:
        return f"Open place at table {self.table_number} of {self.round}, stage {self.stage}"
