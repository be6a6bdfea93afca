"""Each worker's check of the tokens its open sockets were opened with: a socket whose token stopped being
valid is closed within `ACCESS_TOKEN_RECHECK_SECONDS` (default 5), whatever made it invalid and wherever.

The channel-layer message of `access_tokens.revocation` closes such sockets at once; this check is what
holds when that message cannot come: a change made where no channel layer reaches the workers (a shell or
a command on the embedded default's in-memory layer, a database edit) or a message Redis lost. It is one
query per worker per period for all its token sockets, however many.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError, InterfaceError

from access_tokens.models import AccessToken
from access_tokens.revocation import revoked_message

logger = logging.getLogger(__name__)

DEFAULT_RECHECK_SECONDS = 5.0

# Per event loop: token id -> the sockets (consumers) open with it in this process.
_sockets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_tasks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def recheck_seconds() -> float:
    return float(getattr(settings, "ACCESS_TOKEN_RECHECK_SECONDS", DEFAULT_RECHECK_SECONDS))


def watch(consumer, token_id: int) -> None:
    """Look after `consumer` (with an async `access_token_revoked(message)`) opened with `token_id`; starts
    this event loop's check once (call from the consumer's connect)."""
    if recheck_seconds() <= 0:
        return
    loop = asyncio.get_running_loop()
    tokens = _sockets.setdefault(loop, {})
    tokens.setdefault(token_id, weakref.WeakSet()).add(consumer)
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(check_forever(tokens), name="access-token-recheck")


def unwatch(consumer, token_id: int) -> None:
    tokens = _sockets.get(asyncio.get_running_loop(), {})
    sockets = tokens.get(token_id)
    if sockets is not None:
        sockets.discard(consumer)
        if not sockets:
            del tokens[token_id]


def still_valid(token_ids: list[int]) -> set[int]:
    """Those of `token_ids` that are not revoked and whose account is active."""
    return set(AccessToken.objects.filter(pk__in=token_ids, revoked_at__isnull=True, user__is_active=True)
               .values_list("pk", flat=True))


async def check_forever(tokens: dict) -> None:
    while True:
        await asyncio.sleep(recheck_seconds())
        ids = [token_id for token_id, sockets in tokens.items() if sockets]
        if not ids:
            continue
        try:
            valid = await database_sync_to_async(still_valid)(ids)
        except (DatabaseError, InterfaceError):  # the database briefly unreachable: try again next time
            logger.warning("could not check the access tokens of open sockets", exc_info=True)
            continue
        for token_id in set(ids) - valid:
            for consumer in list(tokens.pop(token_id, ())):
                await consumer.access_token_revoked(revoked_message())
