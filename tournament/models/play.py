"""Rounds, tables and seats, and the games played at them with their hands and scores."""

from django.db import models
from django.db.models import Q


class Round(models.Model):
    class Kind(models.TextChoices):
        TABLES = "tables", "Tables"
        BRACKET = "bracket", "Bracket of tables"

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TABLES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    seed = models.BigIntegerField(help_text="Seed of the shuffle that seated the players (recorded to replay it).")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    time_limit_at = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="When the round's time is up: no hand is dealt after it, the hand in play is finished, "
                  "then the highest total wins (docs/rules.md, \"Time limit\").",
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return f"{self.event} – round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    stage = models.PositiveSmallIntegerField(default=1, help_text="Stage of a bracket; 1 for a round of tables.")

    class Meta:
        ordering = ["round", "stage", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "stage", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Attendance(models.TextChoices):
    PLAYED = "played", "played (the organizer says)"
    DID_NOT_PLAY = "did_not_play", "did not play (the organizer says)"


class Seat(models.Model):
    """A numbered seat at a table, held by a player or by a bot (never both, never neither)."""

    class BotKind(models.TextChoices):
        RANDOM = "random", "Random legal moves"
        HEURISTIC = "heuristic", "Sensible heuristic"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="0-based, clockwise from the first seat.")
    player = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot_kind = models.CharField(max_length=10, choices=BotKind.choices, blank=True)
    # The player the seating gave this seat to, when the organizer's "Replace" gave it to a reserve or a bot
    # (tournament.services.round_control): the bracket's results still seat them here, not the reserve.
    in_place_of = models.ForeignKey(
        "tournament.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_seats"
    )
    # What the organizer said about this seat when recording a hand by hand (tournament.services.participation):
    # blank follows the live table (and a paper table's hands), the other two overrule it.
    organizer_says = models.CharField(max_length=12, choices=Attendance.choices, blank=True)
    organizer_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(bot_kind="")) | (Q(player__isnull=True) & ~Q(bot_kind="")),
                name="seat_held_by_player_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def is_bot(self) -> bool:
        return self.player_id is None

    @property
    def label(self) -> str:
        if self.player_id is None:
            return f"Bot {self.number + 1}"
        return self.player.display_name


class Game(models.Model):
    """A game played to the target score at a table."""

    class Status(models.TextChoices):
        PENDING = "pending", "Not started"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    target_score = models.PositiveIntegerField()
    winner = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="games_won")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seat_order = models.JSONField(
        default=list, blank=True,
        help_text="Partner rotation: the table's seat numbers playing this block, in game seat order (0+2 and "
                  "1+3 partners). Empty: every seat of the table, in seat order.")

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="unique_game_number")]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}"

    def game_seat_numbers(self, table_seat_numbers) -> list[int]:
        """The table's seat numbers in game seat order (game seat i is the i-th)."""
        return list(self.seat_order) if self.seat_order else sorted(table_seat_numbers)


class Hand(models.Model):
    class Source(models.TextChoices):
        LIVE = "live", "Played live"
        MANUAL = "manual", "Recorded by an organizer"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField(help_text="Seat number of the dealer.")
    winner = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="hands_won")
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.LIVE)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number")]

    def __str__(self) -> str:
        return f"Hand {self.number}"


class HandScore(models.Model):
    """One seat's result in one hand: the value of the cards left in hand and the points won.

    This is the only place scores are stored; cumulative totals are sums over these rows.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="hand_scores")
    points_left = models.PositiveIntegerField(default=0, help_text="Value of the cards left in this seat's hand.")
    points_won = models.PositiveIntegerField(default=0, help_text="Points this seat scored in the hand.")

    class Meta:
        ordering = ["hand", "seat__number"]
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="one_score_per_seat_and_hand")]

    def __str__(self) -> str:
        return f"{self.hand}, seat {self.seat_id}: won {self.points_won}, left {self.points_left}"
