"""Creating live games: for tournament games (the tournament opens them when a round starts, with the rules
it chose), private practice games against bots, and exhibition tables of bots for anyone to watch. Every
game starts with its first hand dealt (version 1). Also the organizer's pause, resume and finish as the
live table follows them (called by the tournament)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from games import engine, signals
from games.models import LiveGame, LiveMove
from games.services import fairness, first_moves, practice_caps
from games.services.moves import deal_next_hand, engine_game, lock_live_game, store_change, store_notice
from games.services.seats import seat_holders

DEFAULT_PRACTICE_TURN_SECONDS = 30
BOT_KINDS = ("heuristic", "random")


class PracticeError(ValueError):
    """A practice game that cannot be set up; the message says what to change."""


def _new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**62)


def _start(live: LiveGame, rules: engine.RuleSet, seed: int | None) -> LiveGame:
    """Save `live` with a new engine game and deal its first hand (inside the caller's transaction).

    Without an explicit `seed` hands are shuffled with secret per-hand seeds from a random
    `shuffle_key`; with one (tests, the demo) the game is reproducible from it."""
    live.shuffle_key = fairness.new_shuffle_key() if seed is None else ""
    game = engine.Game(rules, live.seat_count, _new_seed() if seed is None else seed)
    live.state = game.to_dict()
    live.preset = rules.preset
    live.missed_turns = [0] * live.seat_count
    live.bot_takeover = [False] * live.seat_count
    live.save()
    deal_next_hand(live, game, seat_holders(live), timezone.now())
    return live


# ---- tournament games --------------------------------------------------------------------------------

def open_tournament_table(tournament_game, rules: engine.RuleSet, seats: int, title: str, *,
                          turn_seconds: int, missed_turns_before_bot: int, token_moves_only: bool = False,
                          arrival_seconds: int = 0, seed: int | None = None, watch_group: str = "",
                          announce_group: str = "") -> LiveGame:
    """A new live game for `tournament_game` (which has none yet), with the rules, seat count and clock
    the tournament chose (`tournament.services.live_tables`); `token_moves_only` for a bot league,
    whose entrants' bots play through their access tokens. `arrival_seconds`: the arrival countdown (0:
    none): a player's turn clock starts when they first open the table or when it ends
    (`games.services.arrival`). `watch_group` / `announce_group`: the channel-layer groups the table
    nudges after each change and whose announcements it shows (plain names). Race-safe: a second creator
    hits the unique
    constraint and gets the first one's game."""
    rules.check_seats(seats)
    live = LiveGame(kind=LiveGame.Kind.TOURNAMENT, game=tournament_game, seat_count=seats, title=title,
                    turn_seconds=turn_seconds, missed_turns_before_bot=missed_turns_before_bot,
                    token_moves_only=token_moves_only, arrived=[False] * seats,
                    arrival_until=timezone.now() + timedelta(seconds=arrival_seconds) if arrival_seconds else None,
                    watch_group=watch_group, announce_group=announce_group)
    try:
        with transaction.atomic():
            return _start(live, rules, seed)
    except IntegrityError:
        found = LiveGame.objects.filter(game=tournament_game).first()
        if found is None:
            raise
        return found


def end_with_this_change(live: LiveGame) -> None:
    """The live game ends with the change being stored (a `hand_scored` receiver calls it when the
    tournament game is over without reaching a target, e.g. a partner rotation's block after its hands):
    no next hand is dealt. The move service saves it with the move."""
    live.status = LiveGame.Status.FINISHED
    live.next_hand_at = None


# ---- practice and exhibition games -------------------------------------------------------------------

def check_practice_setup(preset: str, opponents: int, bot_kind: str) -> engine.RuleSet:
    """The rules for a practice game, or `PracticeError` (the form shows the same messages)."""
    try:
        rules = engine.get_preset(preset)
    except engine.RuleError as error:
        raise PracticeError(str(error)) from error
    if bot_kind not in BOT_KINDS:
        raise PracticeError(f"unknown bot '{bot_kind}'; choose {' or '.join(BOT_KINDS)}")
    if not isinstance(opponents, int) or opponents < 1:
        raise PracticeError("play against at least one bot")
    try:
        rules.check_seats(opponents + 1)
    except engine.RuleError as error:
        raise PracticeError(f"{error}: choose {rules.min_players - 1} to {rules.max_players - 1} bots") from error
    return rules


def start_practice_game(user, preset: str, opponents: int, bot_kind: str = "heuristic",
                        seed: int | None = None, turn_seconds: int | None = None, *, with_my_bot: bool = False,
                        target: int | None = None, address: str | None = None) -> LiveGame:
    """A private game of `user` (seat 0) against `opponents` bots. `with_my_bot`: seat 0 is played by
    the user's own bot, whose moves come only through the user's access token. `target`: the points that
    end the game, if not the preset's (a short game). Within the caps of `practice_caps` (`address`: the
    client's, when started from a page), else `PracticeCapReached`."""
    rules = check_practice_setup(preset, opponents, bot_kind)
    practice_caps.count_start(address)
    if target is not None:
        rules = rules.with_overrides(target=target)
    if turn_seconds is None:
        turn_seconds = getattr(settings, "LIVE_PRACTICE_TURN_SECONDS", DEFAULT_PRACTICE_TURN_SECONDS)
    who = "Your bot" if with_my_bot else "Practice"
    live = LiveGame(kind=LiveGame.Kind.PRACTICE, owner=user, seat_count=opponents + 1,
                    title=f"{who}: {engine.preset_label(rules.preset)} against {opponents} bot{'s' if opponents > 1 else ''}",
                    bot_kinds=[""] + [bot_kind] * opponents, turn_seconds=turn_seconds,
                    missed_turns_before_bot=3, token_moves_only=with_my_bot)
    with transaction.atomic():
        practice_caps.check_running(user)
        live = _start(live, rules, seed)
        signals.practice_started.send(sender=LiveGame, live_game=live)
        return live


def create_demo_bot_table(seats: int = 4, preset: str = "uno-official", bot_kind: str = "heuristic",
                          seed: int | None = None, *, rules: engine.RuleSet | None = None,
                          title: str = "") -> LiveGame:
    """An exhibition table of bots playing live for anyone to watch (the demo's "watch a game").

    It plays `preset`, or `rules` when given (an event's rules: the caller names the table in `title`)."""
    rules = rules or engine.get_preset(preset)
    title = title or f"Exhibition: {engine.preset_label(rules.preset)}, {seats} bots"
    rules.check_seats(seats)
    live = LiveGame(kind=LiveGame.Kind.EXHIBITION, seat_count=seats, title=title, bot_kinds=[bot_kind] * seats,
                    turn_seconds=0, missed_turns_before_bot=0)
    with transaction.atomic():
        return _start(live, rules, seed)


# ---- the organizer pauses, resumes or finishes a tournament game ------------------------------------

GAME_PAUSED, GAME_RESUMED, GAME_CLOSED = "game_paused", "game_resumed", "game_closed"


def tournament_game_status_changed(tournament_game, action: str, now=None) -> LiveGame | None:
    """The organizer paused, resumed or finished `tournament_game` (call inside that change's transaction,
    after the game's new status is saved). Pause stops the clock: the turn deadline and the next deal are
    moved on by the time the game was paused when it resumes, so nobody loses turn time to a pause and no
    timer fires at the resume. Finish stops the live game. Each is stored as a notice (a new version),
    so every socket at the table hears of it at once. None if the game has no live table."""
    pk = LiveGame.objects.filter(game_id=tournament_game.pk).values_list("pk", flat=True).first()
    if pk is None:
        return None
    now = now or timezone.now()
    live = _lock_without_waiting(pk)
    if live.status != LiveGame.Status.RUNNING:
        return live  # the game had already ended at the table
    game = engine_game(live)
    data: dict = {"by": "organizer"}
    if action == "pause":
        kind = GAME_PAUSED
        live.paused_at = live.paused_at or now
    elif action == "resume":
        kind = GAME_RESUMED
        if live.paused_at is not None:
            gap = max(now - live.paused_at, timedelta(0))
            live.deadline = live.deadline + gap if live.deadline else None
            live.next_hand_at = live.next_hand_at + gap if live.next_hand_at else None
            if live.arrival_until is not None and live.arrival_until > live.paused_at:
                live.arrival_until += gap  # the arrival countdown waits too
            data["paused_seconds"] = round(gap.total_seconds())
        live.paused_at = None
    elif action == "finish":
        kind = GAME_CLOSED
        live.status = LiveGame.Status.FINISHED
        live.deadline = live.next_hand_at = live.paused_at = None
    else:
        raise ValueError(f"unknown game action {action!r}")
    store_notice(live, game, seat_holders(live), kind, data)
    return live


SEAT_CHANGED = "seat_changed"


def tournament_seat_changed(tournament_game, game_seat: int, text: str) -> LiveGame | None:
    """The tournament changed who holds a seat of `tournament_game` (a no-show replaced by a reserve or a bot; call
    inside that change's transaction, after the seat is saved). Stored as a notice (a new version, `text`
    shown in the table's log) so every socket at the table reads the seat's new holder at once, and the
    clock follows (a bot seat on turn is played by the sweeper); the seat's first own move is the new
    holder's to make (`first_moves`). None if the game has no live table."""
    pk = LiveGame.objects.filter(game_id=tournament_game.pk).values_list("pk", flat=True).first()
    if pk is None:
        return None
    live = _lock_without_waiting(pk)
    if live.status != LiveGame.Status.RUNNING:
        return live
    game = engine_game(live)
    holders = seat_holders(live)
    data = {"game_seat": game_seat, "text": text}
    if game.hand is not None and not game.hand.over and game_seat in live.hand_seats:
        data["seat"] = live.hand_seats.index(game_seat)
    first_moves.forget(live, game_seat)  # the new holder's first own move is theirs to announce
    # No turn key before: the seat's clock starts afresh for its new holder (a bot's think time, a full turn).
    store_change(live, game, holders, [engine.TableEvent(SEAT_CHANGED, data)], seat=game_seat,
                 actor=LiveMove.Actor.SYSTEM, action=None, hand_number=len(game.results), before=None)
    return live


class LiveTableBusy(Exception):
    """A move holds the live table's row right now (the organizer's change is rolled back; try again)."""


def _lock_without_waiting(pk: int) -> LiveGame:
    """The live game row, locked, or `LiveTableBusy` at once if a move holds it. The organizer's change
    holds the tournament game's row, and a move that ends a hand holds the live game's and then writes
    rows pointing at the tournament game: waiting here could deadlock with it (PostgreSQL would abort one).
    SQLite has no row locks: its write lock is taken at BEGIN, so there is nothing to wait for here."""
    try:
        return lock_live_game(pk, nowait=connection.features.has_select_for_update_nowait)
    except OperationalError as error:
        raise LiveTableBusy("a move is being played at this table right now; try again in a moment") from error
