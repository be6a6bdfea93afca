"""What a table socket may send (docs/protocol.md): each frame checked before anything acts on it."""

from __future__ import annotations

from games import strict_json

MAX_MESSAGE_BYTES = 4096  # larger: a `malformed` error
MAX_MOVE_ID = 64

MESSAGE_FIELDS = {
    "sync": {"type"},
    "ping": {"type", "echo"},
    "move": {"type", "version", "action", "id"},
}


class BadMessage(Exception):
    pass


def utf8_size(text: str) -> int:
    """The frame's size in bytes as it travelled (UTF-8), not in characters."""
    return len(text.encode("utf-8", "surrogatepass"))


def parse_message(text_data: str | None, bytes_data: bytes | None) -> dict:
    """The message as a dict with checked fields, or `BadMessage` saying what is wrong."""
    if text_data is None:
        raise BadMessage("send JSON text frames, not binary data")
    if utf8_size(text_data) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large (limit {MAX_MESSAGE_BYTES} bytes)")
    try:
        content = strict_json.loads(text_data)
    except ValueError as bad:
        raise BadMessage(f"message is not valid JSON: {bad}") from None
    if not isinstance(content, dict):
        raise BadMessage('a message must be a JSON object such as {"type": "sync"}')
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_FIELDS:
        raise BadMessage(f"unknown message type {kind!r}; expected one of {', '.join(MESSAGE_FIELDS)}")
    extra = set(content) - MESSAGE_FIELDS[kind]
    if extra:
        raise BadMessage(f"unexpected field(s) for '{kind}': {', '.join(sorted(extra))}")
    if kind == "move":
        version = content.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise BadMessage("'version' must be the game version you acted on (a whole number)")
        if not isinstance(content.get("action"), dict):
            raise BadMessage("'action' must be an object such as {\"type\": \"draw\"}")
        move_id = content.get("id", "")
        if move_id is None:
            move_id = ""
        if not isinstance(move_id, str) or len(move_id) > MAX_MOVE_ID or not move_id.isprintable():
            # Printable only: the id is stored, and PostgreSQL text cannot hold NUL or other controls.
            raise BadMessage(f"'id' must be a string of at most {MAX_MOVE_ID} printable characters")
        content["id"] = move_id
    return content
