"""Which seats of a table have a player's socket open (the "away" hint on the table).

One `LiveConnection` row per open player socket. A worker process that is killed never runs its sockets'
disconnect, so rows carry a heartbeat: every worker refreshes `last_seen` of the rows of its own open
sockets every `LIVE_PRESENCE_HEARTBEAT` seconds (`heartbeat_forever`, started by the first socket), and a
row not refreshed for `LIVE_PRESENCE_TTL` seconds counts as gone. Any live worker deletes such rows and
tells their tables the new presence, so a seat whose worker died shows "away" within about the TTL.
The same heartbeat keeps the spectator sockets' rows (`games.services.watchers`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import LiveConnection, LiveGame
from games.services import nudges

logger = logging.getLogger(__name__)

DEFAULT_HEARTBEAT_SECONDS = 15.0
DEFAULT_TTL_SECONDS = 45.0

_local_channels: set[str] = set()  # player sockets open in this process


def heartbeat_seconds() -> float:
    return float(getattr(settings, "LIVE_PRESENCE_HEARTBEAT", DEFAULT_HEARTBEAT_SECONDS))


def ttl() -> timedelta | None:
    """How long a row counts without a heartbeat; None when heartbeats are off (LIVE_PRESENCE_HEARTBEAT = 0,
    e.g. tests that drive time themselves): rows then count until their socket closes."""
    if heartbeat_seconds() <= 0:
        return None
    return timedelta(seconds=float(getattr(settings, "LIVE_PRESENCE_TTL", DEFAULT_TTL_SECONDS)))


def _alive(now: datetime):
    limit = ttl()
    rows = LiveConnection.objects.all()
    return rows if limit is None else rows.filter(last_seen__gte=now - limit)


def connected_seats(live_game_id: int, now: datetime | None = None) -> list[int]:
    now = now or timezone.now()
    return sorted(set(_alive(now).filter(live_game_id=live_game_id).values_list("seat", flat=True)))


def connected_by_game(live_game_ids, now: datetime | None = None) -> dict[int, set[int]]:
    """{live game id: seats with a player's socket open} for many tables in one query."""
    out: dict[int, set[int]] = {pk: set() for pk in live_game_ids}
    rows = _alive(now or timezone.now()).filter(live_game_id__in=list(out)).values_list("live_game_id", "seat")
    for pk, seat in rows:
        out[pk].add(seat)
    return out


def watch_groups(live_game_ids: list[int]) -> dict[int, str]:
    """{live game id: its watch group} for the tables that have one (`games.services.nudges`)."""
    return dict(LiveGame.objects.filter(pk__in=live_game_ids).exclude(watch_group="")
                .values_list("pk", "watch_group"))


def socket_opened(live_game_id: int, seat: int, channel_name: str, via_token: bool = False) -> list[int] | None:
    """Record a player's socket at `seat`; the seats connected now, or None when the game was deleted
    since the socket read it (its row refers to a game no longer there)."""
    now = timezone.now()
    try:
        with transaction.atomic():
            LiveConnection.objects.update_or_create(channel_name=channel_name, defaults={
                "live_game_id": live_game_id, "seat": seat, "last_seen": now, "via_token": via_token})
    except IntegrityError:
        return None
    _local_channels.add(channel_name)
    return connected_seats(live_game_id, now)


def token_sockets_at(live_game_id: int, seat: int, but: str) -> int:
    """How many other sockets opened with the player's access token (their bot) are open at `seat`."""
    return _alive(timezone.now()).filter(live_game_id=live_game_id, seat=seat, via_token=True).exclude(
        channel_name=but).count()


def socket_closed(live_game_id: int, channel_name: str) -> tuple[bool, list[int]]:
    """(whether this socket was a player's, the seats still connected)."""
    _local_channels.discard(channel_name)
    deleted, _ = LiveConnection.objects.filter(channel_name=channel_name).delete()
    return bool(deleted), connected_seats(live_game_id) if deleted else []


def beat(now: datetime | None = None) -> dict[int, list[int]]:
    """Refresh this process's rows; delete rows nobody refreshed within the TTL (their worker died).
    Returns {live game id: seats still connected} for every table that lost a row."""
    now = now or timezone.now()
    if _local_channels:
        LiveConnection.objects.filter(channel_name__in=list(_local_channels)).update(last_seen=now)
    limit = ttl()
    if limit is None:
        return {}
    stale = (LiveConnection.objects.filter(Q(last_seen__lt=now - limit) | Q(last_seen__isnull=True))
             .exclude(channel_name__in=list(_local_channels)))
    games = sorted(set(stale.values_list("live_game_id", flat=True)))
    if not games:
        return {}
    stale.delete()
    return {pk: connected_seats(pk, now) for pk in games}


async def heartbeat_forever() -> None:
    """Beat until cancelled; tell each table that lost a stale row which seats are connected."""
    from channels.layers import get_channel_layer

    from games.services import watchers
    from games.services.broadcast import table_group_name

    def beat_all() -> dict[int, list[int]]:
        watchers.beat()  # the spectator sockets' rows (how many watch each table) share the heartbeat
        return beat()

    while True:
        await asyncio.sleep(heartbeat_seconds())
        try:
            changed = await database_sync_to_async(beat_all)()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - e.g. the database restarting: the next beat tries again
            logger.warning("presence heartbeat failed", exc_info=True)
            continue
        layer = get_channel_layer()
        for live_id, seats in changed.items():
            try:
                await layer.group_send(table_group_name(live_id), {"type": "presence.changed", "connected": seats})
            except Exception:  # noqa: BLE001 - the layer is down: the table hears of it with its next state
                logger.warning("could not announce presence at live game %s", live_id, exc_info=True)
        try:
            groups = await database_sync_to_async(watch_groups)(list(changed)) if changed else {}
        except Exception:  # noqa: BLE001 - a hint only: the watchers hear of it with the table's next change
            logger.warning("could not read the watch groups of live games %s", list(changed), exc_info=True)
            groups = {}
        for live_id, group in groups.items():
            nudges.nudge_soon(group, live_id)  # the organizer's live round view: a seat went away


_loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ensure_heartbeat() -> None:
    """Start the heartbeat in this process's event loop once (call from async code, e.g. on connect)."""
    if heartbeat_seconds() <= 0:
        return
    loop = asyncio.get_running_loop()
    task = _loops.get(loop)
    if task is None or task.done():
        _loops[loop] = loop.create_task(heartbeat_forever(), name="live-presence-heartbeat")
