"""Events, their eligibility lists and the players registered for them."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from games.engine import PRESET_CHOICES
from tournament.csv_formats import normalize_programme
from tournament.eligibility_policy import Policy, PolicyError, parse_policy, with_values
from tournament.rules import RulesRefused, check_table_sizes

TABLE_SIZE_VALIDATORS = [MinValueValidator(2), MaxValueValidator(10)]


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class Eligibility(models.TextChoices):
        OPEN = "open", "Open to everyone"
        LIST = "list", "Only people on the eligibility list"

    class Entrants(models.TextChoices):
        PEOPLE = "people", "People play at their tables"
        BOTS = "bots", "Bot league: students enter bots they wrote, which play through access tokens"

    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    description = models.TextField(blank=True)
    rules_preset = models.CharField(max_length=40, choices=PRESET_CHOICES, default="uno-official")
    rules_overrides = models.JSONField(
        default=dict, blank=True, help_text="Options that differ from the preset, e.g. {\"hand_size\": 8}."
    )
    target_score = models.PositiveIntegerField(
        null=True, blank=True, help_text="Points that win a game; empty means the preset's own target."
    )
    min_table_size = models.PositiveSmallIntegerField(default=3, validators=TABLE_SIZE_VALIDATORS)
    max_table_size = models.PositiveSmallIntegerField(default=4, validators=TABLE_SIZE_VALIDATORS)
    turn_seconds = models.PositiveSmallIntegerField(
        default=30, help_text="Seconds a player has for a move in a live game; 0 means no timer."
    )
    missed_turns_before_bot = models.PositiveSmallIntegerField(
        default=3, help_text="Missed turns in a row after which a bot plays for the player until they return."
    )
    arrival_grace_seconds = models.PositiveIntegerField(
        default=300,
        help_text="Arrival countdown of every round's live tables, in seconds: a player's turn clock starts "
                  "when they first open their table, or when this countdown ends; nothing is played for them "
                  "before. 0 means no wait: the clock runs from the start.",
    )
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    checkin_open = models.BooleanField(
        default=False, help_text="While on, registered players can check themselves in for the next round."
    )
    eligibility = models.CharField(max_length=10, choices=Eligibility.choices, default=Eligibility.OPEN)
    eligibility_policy = models.JSONField(
        default=list, blank=True, verbose_name="eligibility policy",
        help_text='Who on the list may register, by the list\'s own columns; every condition must hold. '
                  'E.g. [{"column": "programme", "one_of": ["UG"]}, '
                  '{"column": "department", "one_of": ["Chemical Engineering"]}, '
                  '{"column": "year", "from": 1, "to": 4}]. Empty: everyone on the list.',
    )
    entrants = models.CharField(
        max_length=10, choices=Entrants.choices, default=Entrants.PEOPLE,
        help_text="A bot league's players enter their own bots: at its tables players' moves are taken only "
                  "through their access tokens (docs/bots.md); timers, leaderboards and brackets are as for people.",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    announcement = models.CharField(
        max_length=500, blank=True, editable=False,
        help_text="The latest organizer's announcement (a copy of the newest Announcement, so that the event's "
                  "pages show their banner without a query); set by tournament.services.announcements.",
    )
    announced_at = models.DateTimeField(null=True, blank=True, editable=False)
    announcement_ends_at = models.DateTimeField(null=True, blank=True, editable=False)
    shown_announcement = models.ForeignKey(
        "tournament.Announcement", null=True, blank=True, editable=False, on_delete=models.SET_NULL,
        related_name="+", help_text="The announcement the event's banner shows (its id names it to the pages, "
                                    "which drop it when it ends).",
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organized_events",
        help_text="Members of the Organizer group who run this event (superusers run every event).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event_detail", args=[self.slug])

    def clean(self) -> None:
        errors = {}
        if self.min_table_size and self.max_table_size and self.min_table_size > self.max_table_size:
            errors["min_table_size"] = "The smallest table cannot be larger than the largest table."
        if self.registration_opens and self.registration_closes:
            if self.registration_opens >= self.registration_closes:
                errors["registration_closes"] = "Registration must close after it opens."
        if not isinstance(self.rules_overrides, dict):
            errors["rules_overrides"] = "Overrides must be a JSON object of option names and values."
        try:
            self.eligibility_policy = self.policy().to_json()
        except PolicyError as error:
            errors["eligibility_policy"] = str(error)
        if errors:
            raise ValidationError(errors)
        try:
            check_table_sizes(self)  # the rules themselves first, then the table sizes they can be played by
        except RulesRefused as refused:
            raise ValidationError({refused.field: str(refused)}) from refused

    def policy(self) -> Policy:
        """The eligibility policy, read and with programme spellings turned into codes (UG, PG, PhD)."""
        return with_values(parse_policy(self.eligibility_policy), "programme", normalize_programme)

    @property
    def bot_league(self) -> bool:
        return self.entrants == self.Entrants.BOTS

    def registration_is_open(self, now=None) -> bool:
        now = now or timezone.now()
        if self.status != self.Status.REGISTRATION:
            return False
        if self.registration_opens and now < self.registration_opens:
            return False
        return not (self.registration_closes and now >= self.registration_closes)


class EligibilityEntry(models.Model):
    """One person on an event's eligibility list (for example one undergraduate of a department)."""

    class Programme(models.TextChoices):
        UG = "UG", "Undergraduate"
        PG = "PG", "Postgraduate"
        PHD = "PhD", "Doctoral"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="eligibility_entries")
    roll_number = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    email = models.EmailField(
        blank=True, help_text="Empty: whoever registers with this roll number is confirmed by an organizer."
    )
    department = models.CharField(max_length=200)
    programme = models.CharField(max_length=5, choices=Programme.choices)
    year = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(10)])
    extra = models.JSONField(
        default=dict, blank=True, help_text="The uploaded file's other columns (column name → text)."
    )

    FIELDS = ("roll_number", "name", "email", "department", "programme", "year")

    class Meta:
        verbose_name_plural = "eligibility entries"
        ordering = ["roll_number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "roll_number"], name="unique_roll_number_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.roll_number} {self.name}"

    def clean(self) -> None:
        extra = self.extra or {}
        if not isinstance(extra, dict) or not all(isinstance(v, (str, int)) for v in extra.values()):
            raise ValidationError({"extra": 'Other columns must be a JSON object of column names and texts, '
                                            'e.g. {"section": "A"}.'})

    def column_values(self) -> dict:
        """Every column of the entry (fixed and extra) by name, as an eligibility policy reads them."""
        extra = self.extra if isinstance(self.extra, dict) else {}
        return {**extra, **{name: getattr(self, name) for name in self.FIELDS}}


class Player(models.Model):
    """Someone registered for an event: a user, or a walk-in an organizer added without an account."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DISQUALIFIED = "disqualified", "Disqualified"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    class Claim(models.TextChoices):
        NONE = "", "Not a claim"
        PENDING = "pending", "Awaiting an organizer"
        CONFIRMED = "confirmed", "Confirmed by an organizer"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="players",
        help_text="Empty for a walk-in without an account.",
    )
    roll_number = models.CharField(max_length=40, blank=True)
    display_name = models.CharField(max_length=80)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    seeding = models.IntegerField(
        null=True, blank=True, help_text="Optional seeding score (higher is stronger) used to spread players."
    )
    claim = models.CharField(
        max_length=10, choices=Claim.choices, default=Claim.NONE, blank=True,
        help_text="A roll number whose list entry has no e-mail: an organizer confirms it at check-in.",
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_registration_per_user"),
            models.UniqueConstraint(
                fields=["event", "roll_number"],
                condition=~models.Q(roll_number=""),
                name="one_registration_per_roll_number",
            ),
            models.UniqueConstraint(Lower("display_name"), "event", name="unique_display_name_per_event"),
        ]

    def __str__(self) -> str:
        return self.display_name

    ACTIVE_STATUSES = ("registered", "checked_in")  # may play; games.services.seats reads them in SQL

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE_STATUSES

    @property
    def claim_pending(self) -> bool:
        return self.claim == self.Claim.PENDING
