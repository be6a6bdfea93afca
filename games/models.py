"""Live games: a game being played in the browser, as a log of every change.

A `LiveGame` is either the live side of one tournament `Game` (its seats are the tournament `Seat`s,
numbered as there), a private practice game (the owner at seat 0, bots elsewhere) or an exhibition
table of bots anyone may watch. `version` counts changes, and each change is one `LiveMove` row, so a
stored move is never lost and never applied twice (the move service locks the row and checks the
version).

The engine state is derived, not stored per move: `checkpoint` is the engine's `Game.to_dict()` at
`checkpoint_version` (written at each deal, each change that is not an engine action, and every so many
moves: `games.services.game_log`), and the state at `version` is that checkpoint with the actions of the
moves after it replayed (the engine is deterministic). A move therefore writes its own small row and the
game's small columns, never the whole game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games import engine


class LiveGameQuerySet(models.QuerySet):
    def for_play(self) -> LiveGameQuerySet:
        """As the move path and the table's sockets read a live game: with its tournament game, without
        the checkpoint (the engine state comes from memory, or `games.services.game_log` reads it)."""
        return self.select_related("game").defer("checkpoint")


class LiveGame(models.Model):
    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", "Tournament game"
        PRACTICE = "practice", "Practice game"
        EXHIBITION = "exhibition", "Exhibition table of bots"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    game = models.OneToOneField(
        "tournament.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="live",
        help_text="The tournament game this live game plays (tournament games only).",
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="practice_games",
        db_index=False,  # live_game_owner_recent (owner, -created_at) starts with it
        help_text="The player of a practice game (seat 0).",
    )
    title = models.CharField(max_length=200)
    preset = models.CharField(max_length=40)
    seat_count = models.PositiveSmallIntegerField()
    bot_kinds = models.JSONField(
        default=list, blank=True,
        help_text="Practice and exhibition games: the bot kind per seat ('' for the owner's seat).",
    )
    checkpoint = models.JSONField(
        help_text="The engine's Game.to_dict() at checkpoint_version: hidden cards included, never sent as is.")
    checkpoint_version = models.PositiveIntegerField(
        default=0, help_text="The version the checkpoint is of; the moves after it are replayed onto it.")
    version = models.PositiveIntegerField(default=0)
    seats_version = models.PositiveIntegerField(
        default=0,
        help_text="Counts the changes to this row, and to who may act at this table, that are not a new `version`: "
                  "a player withdrawn, disqualified or renamed, a seat given to someone else (the tournament calls "
                  "games.services.seats.holders_changed), a returning player's missed turns cleared. A move stored in "
                  "one statement (games.services.move_sql) checks it with `version`: a worker's copy of the table "
                  "is used only while neither has moved.")
    seats_moved = models.PositiveBigIntegerField(
        default=0,
        help_text="Bit 1 << seat is set once the seat's player has made a move of their own here (not the turn timer's "
                  "or a takeover bot's), and cleared when the seat gets another player: whoever stores the move learns "
                  "from it whether this is the seat's first own move (games.services.first_moves). Changed only with "
                  "`version` or `seats_version`.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    token_moves_only = models.BooleanField(
        default=False,
        help_text="Players act only through a personal access token: their seats are played by bots students "
                  "wrote (a practice game with the owner's bot, a game of a bot-league event).",
    )
    turn_seconds = models.PositiveSmallIntegerField(default=30, help_text="0 means no turn timer.")
    missed_turns_before_bot = models.PositiveSmallIntegerField(default=3)
    # Not indexed alone: `live_game_due_turn` (status, deadline) serves the sweeper, and every move sets the
    # deadline, so each index on it is one more entry written per move.
    deadline = models.DateTimeField(
        null=True, blank=True,
        help_text="When the seat on turn times out (or a bot's think time ends); the sweeper acts then.",
    )
    next_hand_at = models.DateTimeField(null=True, blank=True)  # indexed with status: live_game_due_hand
    hand_seats = models.JSONField(
        default=list, blank=True, help_text="Game seats the current (or last) hand was dealt to, in hand-seat order.",
    )
    missed_turns = models.JSONField(default=list, blank=True, help_text="Missed turns in a row, per seat.")
    bot_takeover = models.JSONField(default=list, blank=True, help_text="Per seat: a bot plays for the player.")
    hand_started_at = models.DateTimeField(null=True, blank=True)
    arrival_until = models.DateTimeField(
        null=True, blank=True,
        help_text="Tournament tables: the end of the arrival countdown. A player's turn clock starts when they "
                  "first open the table or at this time; nothing is played for them before (services.arrival).",
    )
    arrived = models.JSONField(default=list, blank=True,
                               help_text="Per seat: the player has opened the table (or moved) at least once.")
    paused_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When the organizer paused the tournament game: the turn timer and the next deal wait, and "
                  "on resume they are moved on by the time paused (games.services.lifecycle).",
    )
    watch_group = models.CharField(
        max_length=100, blank=True,
        help_text="A channel-layer group told (a small \"table changed\" nudge, at most about once a second) after "
                  "each change and each player arriving or leaving: the organizer's live round view.",
    )
    announce_group = models.CharField(
        max_length=100, blank=True,
        help_text="A channel-layer group whose announcements every socket at this table shows (the event's).",
    )
    shuffle_key = models.CharField(
        max_length=64, blank=True,
        help_text="Secret the per-hand shuffle seeds are derived from (HMAC-SHA256); never sent.",
    )
    shuffles = models.JSONField(
        default=list, blank=True,
        help_text="Per hand dealt: commitment, seed, salt, deal version, seats and dealer. The seed and "
                  "salt are published only once the hand is over (games.services.fairness).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = LiveGameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "deadline"], name="live_game_due_turn"),
            models.Index(fields=["status", "next_hand_at"], name="live_game_due_hand"),
            models.Index(fields=["owner", "-created_at"], name="live_game_owner_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="tournament") & Q(game__isnull=False))
                | (Q(kind="practice") & Q(game__isnull=True) & Q(owner__isnull=False))
                | (Q(kind="exhibition") & Q(game__isnull=True)),
                name="live_game_kind_matches_links",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @staticmethod
    def seat_bit(seat: int) -> int:
        """The seat's bit in `seats_moved` (a table has far fewer than 63 seats: a deck deals no more)."""
        return 1 << seat

    @property
    def ws_path(self) -> str:
        return f"/ws/games/{self.pk}/"

    @property
    def state(self) -> dict:
        """The engine's `Game.to_dict()` at `version`: the checkpoint with the stored moves after it
        replayed (one query when there are any). For a shell, the admin and tests; the move path keeps
        its games in memory instead (`games.services.game_log`)."""
        game = engine.Game.from_dict(self.checkpoint)
        if self.version > self.checkpoint_version:
            actions = self.moves.filter(version__gt=self.checkpoint_version, version__lte=self.version,
                                        action__isnull=False).order_by("version").values_list("action", flat=True)
            game.replay(actions)
        return game.to_dict()

    @state.setter
    def state(self, value: dict) -> None:
        """Replace the engine state at the current version (a new game, or a test's arranged deal)."""
        self.checkpoint = value
        self.checkpoint_version = self.version


class LiveMove(models.Model):
    """One change to a live game: a move, a timer or bot move, or a hand dealt by the system.

    `version` is the game's version after the change. `events` are the engine's `TableEvent.to_dict()` with
    their visibility; `hand_seats` maps the hand's seats to game seats at the time of the change, so the
    events can be shown to the right seats later.
    """

    class Actor(models.TextChoices):
        PLAYER = "player", "Player"
        TIMER = "timer", "Turn timer"
        BOT = "bot", "Bot"
        SYSTEM = "system", "System"

    # No index of its own: (live_game, version) and (live_game, seat) lead with it (one index less to write per move).
    live_game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="moves", db_index=False)
    version = models.PositiveIntegerField()
    hand_number = models.PositiveSmallIntegerField(help_text="0-based number of the hand in the game.")
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Game seat that acted.")
    actor = models.CharField(max_length=10, choices=Actor.choices)
    # No database constraint: PostgreSQL checks one by locking the user's row (FOR KEY SHARE), which writes
    # to that row's page on every move (WAL, a dirty page: a third of a move's CPU in the database,
    # docs/performance.md). The user is the socket's, authenticated; deleting a user nulls it (Django's
    # SET_NULL runs in the ORM, not the database).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", db_constraint=False)
    action = models.JSONField(null=True, blank=True, help_text="The engine action (hand seat numbers).")
    events = models.JSONField(default=list)
    hand_seats = models.JSONField(default=list)
    client_move_id = models.CharField(max_length=64, blank=True)
    via_token = models.BooleanField(
        default=False, help_text="A player's move that came through a personal access token (their bot).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["live_game", "version"]
        indexes = [
            # Who took part in a tournament round is decided by the players' own moves (tournament
            # participation): found without reading the timer's and bots' moves.
            models.Index(fields=["live_game", "seat"], condition=Q(actor="player"), name="live_move_player_seat"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["live_game", "version"], name="unique_live_move_version"),
            models.UniqueConstraint(fields=["live_game", "seat", "client_move_id"],
                                    condition=~Q(client_move_id=""), name="unique_client_move_id"),
        ]

    def __str__(self) -> str:
        return f"{self.live_game} v{self.version} ({self.actor})"


class LiveConnection(models.Model):
    """An open player socket at a table (spectators are not recorded): tells the table who is there.

    Rows are removed when the socket closes. The worker holding the socket refreshes `last_seen`
    (`games.services.presence`); a row not refreshed for a while was left by a worker that died, and
    counts as gone (any live worker deletes it and tells the table). "Connected" is a hint for the
    table, never a rule of play."""

    live_game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="connections")
    seat = models.PositiveSmallIntegerField()
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(null=True, blank=True, db_index=True,
                                     help_text="Last heartbeat of the worker holding the socket.")
    via_token = models.BooleanField(default=False, help_text="Opened with the player's access token (their bot).")

    class Meta:
        indexes = [models.Index(fields=["live_game", "seat"], name="live_connection_seat")]

    def __str__(self) -> str:
        return f"{self.live_game} seat {self.seat}"


class LiveWatcher(models.Model):
    """An open spectator socket at a table (a socket without a seat): how many watch it.

    Kept like `LiveConnection`: removed when the socket closes, `last_seen` refreshed by the worker holding
    it (`games.services.watchers`, on presence's heartbeat); a row not refreshed for the presence TTL was
    left by a worker that died and no longer counts (any live worker deletes it)."""

    live_game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="watchers")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(null=True, blank=True, db_index=True,
                                     help_text="Last heartbeat of the worker holding the socket.")

    def __str__(self) -> str:
        return f"watching {self.live_game}"
