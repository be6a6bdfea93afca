"""How many watch each table: one `LiveWatcher` row per open spectator socket (a socket without a seat).

Shared by every worker through the database, as presence is (`games.services.presence`): the worker
holding a socket refreshes its rows' `last_seen` on presence's heartbeat, and a row not refreshed within
the presence TTL was left by a worker that died: it no longer counts, and the next beat of any live
worker deletes it. A count is one grouped query, whatever the number of tables or watchers.

A socket that counts as a watcher when it opens stays one until it closes, even if the organizer seats its
user meanwhile: a hint for viewers, never a rule of play.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from games.models import LiveWatcher
from games.services import presence

_local_channels: set[str] = set()  # spectator sockets open in this process


def watcher_opened(live_game_id: int, channel_name: str) -> bool:
    """Count a spectator's socket; False when the game was deleted since the socket read it."""
    try:
        with transaction.atomic():
            LiveWatcher.objects.update_or_create(channel_name=channel_name,
                                                 defaults={"live_game_id": live_game_id, "last_seen": timezone.now()})
    except IntegrityError:
        return False
    _local_channels.add(channel_name)
    return True


def watcher_closed(channel_name: str) -> None:
    _local_channels.discard(channel_name)
    LiveWatcher.objects.filter(channel_name=channel_name).delete()


def watcher_counts(live_game_ids: Iterable[int], now: datetime | None = None) -> dict[int, int]:
    """{live game id: open spectator sockets} for the given tables (0 for a table nobody watches)."""
    ids = list(live_game_ids)
    counts = dict.fromkeys(ids, 0)
    if not ids:
        return counts
    rows = LiveWatcher.objects.filter(live_game_id__in=ids)
    limit = presence.ttl()
    if limit is not None:
        rows = rows.filter(last_seen__gte=(now or timezone.now()) - limit)
    counts.update(rows.values_list("live_game_id").annotate(n=Count("id")).order_by())
    return counts


def beat(now: datetime | None = None) -> int:
    """Refresh this process's rows; delete rows nobody refreshed within the TTL. Returns how many went."""
    now = now or timezone.now()
    if _local_channels:
        LiveWatcher.objects.filter(channel_name__in=list(_local_channels)).update(last_seen=now)
    limit = presence.ttl()
    if limit is None:
        return 0
    deleted, _ = (LiveWatcher.objects.filter(Q(last_seen__lt=now - limit) | Q(last_seen__isnull=True))
                  .exclude(channel_name__in=list(_local_channels)).delete())
    return deleted
