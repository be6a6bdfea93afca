"""The one place a live table's frames are turned into text (docs/protocol.md: JSON text frames).

Compact JSON, non-ASCII text as UTF-8 (not `\\u` escapes: the frame's bytes are what travels). Encoded with
orjson: every change is encoded once per viewer and process, and the standard library's encoder took
about 10 us a frame there (a quarter of building an update), orjson under 1 us. Keys that are not strings
(none are sent today) become strings, as the standard library's encoder makes them.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(message: dict[str, Any]) -> str:
    """The frame's text."""
    return orjson.dumps(message, option=_OPTIONS).decode()
