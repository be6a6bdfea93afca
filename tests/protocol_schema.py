"""Every websocket frame the server sends in the tests is checked against docs/protocol.schema.json.

`check_server_frame(path, text)` validates one text frame with the schema's definition for that socket
(`x-sockets`); tests/conftest.py calls it for every frame a `WebsocketCommunicator` receives and every frame
a Playwright page receives. Sockets the schema does not describe (the benchmark's relay) are not checked.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"


@cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


@cache
def _validator(pointer: str):
    from jsonschema import Draft202012Validator

    whole = schema()
    return Draft202012Validator({"$ref": pointer, "$defs": whole["$defs"]}, format_checker=None)


def _pattern(template: str) -> re.Pattern:
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)) + "$")


def definition_for(path: str, direction: str) -> str | None:
    """The schema pointer for frames on the socket at `path` going `direction` ('client' or 'server')."""
    for template, sides in schema()["x-sockets"].items():
        if _pattern(template).match(path):
            return sides[direction]
    return None


def validate(pointer: str, message) -> None:
    """AssertionError naming each place where `message` does not fit the definition at `pointer`."""
    errors = sorted(_validator(pointer).iter_errors(message), key=lambda e: list(e.absolute_path))
    if errors:
        best = _best(errors)
        where = "/".join(str(p) for p in best.absolute_path) or "(the message)"
        raise AssertionError(f"{pointer} does not describe this frame: at {where}: {best.message}\n"
                             f"{json.dumps(message)[:2000]}")


def _best(errors):
    from jsonschema.exceptions import best_match

    return best_match(errors)


NOT_PROTOCOL = ("/ws/bench/",)  # the benchmark's bare relay (bench/relay.py) is no part of the protocol


def check_server_frame(path: str, text: str) -> None:
    path = path.split("?")[0]
    if path.startswith(NOT_PROTOCOL):
        return
    pointer = definition_for(path, "server")
    if pointer is None:
        raise AssertionError(f"the schema describes no socket at {path}: add it to x-sockets in "
                             "docs/protocol.schema.json")
    try:
        message = json.loads(text)
    except ValueError:
        raise AssertionError(f"the server sent a frame that is not JSON on {path}: {text[:200]!r}") from None
    validate(pointer, message)


def event_kinds_in_code() -> set[str]:
    """Every event kind the engine and the live layer create (`Event("kind", ...)`, notices)."""
    kinds = set()
    for path in (SCHEMA_PATH.parent.parent / "games").rglob("*.py"):
        text = path.read_text()
        kinds |= set(re.findall(r'Event\(\s*"([a-z_]+)"', text))
        kinds |= set(re.findall(r'store_notice\([^,]*,[^,]*,[^,]*,\s*"([a-z_]+)"', text, re.S))
    from games.services import arrival, lifecycle

    kinds |= {lifecycle.GAME_PAUSED, lifecycle.GAME_RESUMED, lifecycle.GAME_CLOSED, lifecycle.SEAT_CHANGED,
              arrival.PLAYER_ARRIVED}
    return kinds
