"""How a socket finds out it missed a broadcast when no new one comes: the channel layer (Redis) may be
down, or may have come back after the last change, and the "changed, version N" signals sent meanwhile are
lost for good. On every `ping` (the table page pings every 20 s) the consumer asks for the stored version;
if it is ahead of what the socket was sent, the missing changes are sent from the database as numbered
updates, exactly as for a broadcast.

The version comes from the process's next check for missed changes (`games.services.missed_changes`,
every half second: one query for all the process's tables); only where those checks are turned off does
the ping read it itself, one indexed query on the live layer's database threads (`games.db_threads`)."""

from __future__ import annotations

import logging

from django.db import DatabaseError, InterfaceError

from games import db_threads
from games.models import LiveGame
from games.services import missed_changes

logger = logging.getLogger(__name__)


def _version(live_id: int) -> int | None:
    return LiveGame.objects.filter(pk=live_id).values_list("version", flat=True).first()


UNREACHABLE = missed_changes.UNREACHABLE


async def stored_version(live_id: int) -> int | None | object:
    """The game's version in the database; None if it is gone, `UNREACHABLE` if the database cannot be
    reached (this check is a hint: the next one tries again)."""
    found = await missed_changes.next_reading(live_id)
    if found is not missed_changes.UNREAD:
        return found
    try:
        return await db_threads.run(_version, live_id)
    except (DatabaseError, InterfaceError):
        logger.warning("could not read the version of live game %s", live_id, exc_info=True)
        return UNREACHABLE
