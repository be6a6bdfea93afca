"""The turn timer, bot moves and next-hand deals: the sweeper acts on games whose time has come.

Deadlines are columns of the live game (see `deadlines`), so any process may sweep: `sweep_once(now)`
finds due games, locks each (skipping rows another sweeper holds, where the database can), re-checks
that it is still due and acts through the move service. Sweeping twice is harmless. The loop runs in
every ASGI worker (started by the first game socket, `ensure_sweeper`) and in `manage.py run_sweeper`.

When a person's turn runs out the server plays the default for them (draw, then pass; accept a Wild
Draw 4; choose the colour they hold most) and counts a missed turn; after the event's
`missed_turns_before_bot` missed turns in a row a bot plays the seat until the player returns.

A seat kept for a player's bot (`LiveGame.token_moves_only`: a bot league, a practice game "with my bot")
is never taken over: a silent bot's seat makes the least move every turn (the same default), so the
points a bot wins are always its own play's (docs/rules.md, "Bot leagues").
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone

from games import db_threads, signals
from games.engine.silent_seat import default_action
from games.models import LiveGame, LiveMove
from games.services import bot_play, deadlines
from games.services.moves import (
    MoveRefused,
    apply_locked,
    deal_next_hand,
    engine_game,
    lock_live_game,
    store_notice,
)
from games.services.seats import hand_seat_of, seat_holders, turn_game_seat

logger = logging.getLogger(__name__)

SWEEP_BATCH = 100
DEFAULT_SWEEP_INTERVAL = 0.5
MAX_TIMER_ACTIONS = 3  # draw, then pass (or play the drawn card when passing is not allowed)


def due_games(now: datetime, limit: int = SWEEP_BATCH) -> list[int]:
    """The games due at `now`, tournament tables first (a flood of practice tables never delays a
    tournament's turn timer), then by deadline."""
    running_tournament = Q(game__isnull=True) | Q(game__status="running")
    return list(
        LiveGame.objects.filter(status=LiveGame.Status.RUNNING)
        .filter(Q(deadline__lte=now) | Q(next_hand_at__lte=now))
        .filter(running_tournament)
        .annotate(served_after=Case(When(kind=LiveGame.Kind.TOURNAMENT, then=Value(0)), default=Value(1)))
        .order_by("served_after", "deadline")
        .values_list("pk", flat=True)[:limit]
    )


def sweep_once(now: datetime | None = None) -> int:
    """Act on every game that is due at `now`; returns how many games changed."""
    now = now or timezone.now()
    for receiver, outcome in signals.sweep.send_robust(LiveGame, now=now):  # other apps' periodic work
        if isinstance(outcome, Exception):
            logger.error("sweep receiver %r failed", receiver, exc_info=outcome)
    changed = 0
    for pk in due_games(now):
        try:
            if sweep_game(pk, now):
                changed += 1
        except Exception:  # noqa: BLE001 - one broken game must not stop the others' timers
            logger.exception("sweeping live game %s failed", pk)
    return changed


def sweep_game(live_game_id: int, now: datetime) -> bool:
    with transaction.atomic():
        live = lock_live_game(live_game_id, skip_locked=True)
        if live is None or live.status != LiveGame.Status.RUNNING:
            return False
        if live.kind == LiveGame.Kind.TOURNAMENT and live.game.status != "running":
            return False
        game = engine_game(live)
        holders = seat_holders(live)
        hand = game.hand
        if hand is None or hand.over:
            if live.next_hand_at is not None and live.next_hand_at <= now and not game.over:
                deal_next_hand(live, game, holders, now)
                return True
            return False
        if live.deadline is None or live.deadline > now:
            return False  # another sweeper or a move got here first
        seat = turn_game_seat(game, live.hand_seats)
        hand_seat = hand_seat_of(live.hand_seats, seat)
        if deadlines.bot_controlled(live, holders, seat):
            return _bot_move(live, game, holders, seat, hand_seat)
        return _timer_moves(live, game, holders, seat, hand_seat)


def _bot_move(live, game, holders, seat: int, hand_seat: int) -> bool:
    holder = holders[seat] if seat < len(holders) else None
    kind = holder.bot_kind if holder is not None and holder.is_bot else bot_play.TAKEOVER_BOT
    action = bot_play.bot_action(kind, game.hand, hand_seat, seed=live.pk * 1_000_003 + live.version)
    actor = LiveMove.Actor.BOT
    if action is None:
        action = default_action(game.hand, hand_seat)
        actor = LiveMove.Actor.TIMER
    if action is None:
        return False
    try:
        apply_locked(live, game, holders, seat, action, actor)
    except MoveRefused:
        logger.warning("bot move %r refused in live game %s; playing the default", action, live.pk)
        fallback = default_action(game.hand, hand_seat)
        if fallback is None:
            return False
        apply_locked(live, game, holders, seat, fallback, LiveMove.Actor.TIMER)
    return True


def _timer_moves(live, game, holders, seat: int, hand_seat: int) -> bool:
    """Play the default for a seat whose time ran out; count the missed turn, maybe hand it to a bot."""
    live.missed_turns = list(live.missed_turns) + [0] * (live.seat_count - len(live.missed_turns))
    live.bot_takeover = list(live.bot_takeover) + [False] * (live.seat_count - len(live.bot_takeover))
    live.missed_turns[seat] += 1
    limit = 0 if live.token_moves_only else live.missed_turns_before_bot  # a bot's seat: never taken over
    takeover = bool(limit) and live.missed_turns[seat] >= limit and not live.bot_takeover[seat]
    if takeover:
        live.bot_takeover[seat] = True
    number = len(game.results)
    holder = holders[seat] if seat < len(holders) else None
    if holder is not None and holder.user_id is not None:
        signals.turn_timed_out.send(sender=LiveGame, live=live, seat=seat, user_id=holder.user_id)
    acted = False
    for _ in range(MAX_TIMER_ACTIONS):
        hand = game.hand
        if game.over or len(game.results) != number or hand.over or turn_game_seat(game, live.hand_seats) != seat:
            break
        action = default_action(hand, hand_seat)
        if action is None:
            break
        apply_locked(live, game, holders, seat, action, LiveMove.Actor.TIMER)
        acted = True
    if takeover:
        store_notice(live, game, holders, "takeover_started",
                     {"seat": hand_seat, "game_seat": seat, "missed_turns": live.missed_turns[seat]})
        acted = True
    return acted


# ---- the loop ----------------------------------------------------------------------------------------

def sweep_interval() -> float:
    return getattr(settings, "LIVE_SWEEP_INTERVAL", DEFAULT_SWEEP_INTERVAL)


async def sweep_forever(interval: float | None = None) -> None:
    """Sweep until cancelled; pause `interval` (default `LIVE_SWEEP_INTERVAL`) seconds when nothing was
    due. Each change is announced from this event loop as soon as it commits (`db_threads.run`)."""
    while True:
        try:
            changed = await db_threads.run(sweep_once, timezone.now())
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - e.g. the database restarting: try again shortly
            logger.exception("the sweeper failed; retrying")
            changed = 0
        await asyncio.sleep(0.05 if changed else (sweep_interval() if interval is None else interval))


_loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ensure_sweeper() -> None:
    """Start the sweeper in this process's event loop once (call from async code, e.g. on connect).

    Off when `LIVE_SWEEPER_IN_PROCESS` is False (tests drive `sweep_once` themselves; a deployment may
    prefer only `manage.py run_sweeper`)."""
    if not getattr(settings, "LIVE_SWEEPER_IN_PROCESS", True):
        return
    loop = asyncio.get_running_loop()
    task = _loops.get(loop)
    if task is None or task.done():
        _loops[loop] = loop.create_task(sweep_forever(), name="live-game-sweeper")
