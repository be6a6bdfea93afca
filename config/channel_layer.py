"""The channels-redis pub/sub layer, decoding each group message once per process instead of once per socket.

A group message reaches every socket of the group in this process as the same bytes object (the layer puts
what Redis delivered into each socket's queue), and each socket's `receive` decrypts and unpacks it again.
A live table's change carries its move and its events (games.services.broadcast), decrypted and unpacked
once per socket without this. Here the decoded message is kept, keyed by
that bytes object, for the other sockets (a cachetools ``FIFOCache``: the oldest message goes first). They
share one dict: consumers must read group messages, not change them (ours do).
"""

from __future__ import annotations

import logging
import threading

from cachetools import FIFOCache
from channels_redis.pubsub import RedisPubSubChannelLayer
from cryptography.fernet import InvalidToken

logger = logging.getLogger(__name__)

KEEP = 256  # decoded messages kept: more than a process's sockets take to read one message


class SharedDecodingPubSubLayer(RedisPubSubChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # id(message) -> (message, decoded): holding the message keeps its id from being reused
        self._decoded: FIFOCache[int, tuple[bytes, dict]] = FIFOCache(KEEP)
        self._lock = threading.Lock()  # a process may run more than one event loop (the layer is shared)

    async def receive(self, channel: str):
        """The next message this process can read. One sealed with another key (another site or a bench
        sharing the Redis server under the same prefix: pub/sub ignores Redis's database numbers) is
        dropped and logged instead of ending the socket that was waiting for it."""
        while True:
            try:
                return await self._get_layer().receive(channel)  # the layer proxies to its per-loop layer
            except InvalidToken:
                logger.warning("dropped a channel-layer message on %s sealed with another key (is another "
                               "site using this Redis server with the same CHANNEL_LAYER_PREFIX?)", channel)

    def deserialize(self, message: bytes):
        key = id(message)
        with self._lock:
            found = self._decoded.get(key)
            if found is not None and found[0] is message:  # the very same bytes (a held id is never reused)
                return found[1]
        decoded = super().deserialize(message)
        with self._lock:
            self._decoded[key] = (message, decoded)
        return decoded
