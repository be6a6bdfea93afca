"""The one place a live table's frames are turned into text (docs/protocol.md: JSON text frames).

Compact JSON, non-ASCII text as UTF-8 (not `\\u` escapes: the frame's bytes are what travels).
"""

from __future__ import annotations

import json
from typing import Any

_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: dict[str, Any]) -> str:
    """The frame's text."""
    return _encoder.encode(message)
