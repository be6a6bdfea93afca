"""What the bot commands (`manage.py simulate`, `python -m games.arena`) share on the command line: the
progress bar and reading `--set NAME=VALUE` rule options. Pure Python: the arena runs without Django."""

from __future__ import annotations

import json
import time
from collections.abc import Callable


class ProgressBar:
    """A one-line bar redrawn with `\\r` on `stream` (a terminal's stderr), finished with a newline.
    `write`, when given, writes instead of `stream.write` (Django's output wrapper needs `ending=""`)."""

    def __init__(self, stream, label: str, width: int = 30, write: Callable[[str], object] | None = None) -> None:
        self.stream, self.label, self.width = stream, label, width
        self.write = write or stream.write
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        self.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} "
                   f"{elapsed:.1f}s" + ("\n" if done >= total else ""))
        self.stream.flush()


def parse_override(text: str) -> tuple[str, object]:
    """NAME=VALUE, the value read as JSON when it is JSON (true, 300, "x") and as text otherwise;
    `ValueError` with the message to show for anything else."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--set takes NAME=VALUE (for example partners=true), not {text!r}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name.strip(), value
