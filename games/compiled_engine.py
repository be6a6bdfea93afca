"""Whether the rules engine runs compiled, and from which sources (`tools/compile_engine.py` builds it).

Python imports a module's compiled extension (`games/engine/*.so`) in place of its `.py` file, so a
compiled engine built from older sources would keep running the old rules. The build writes a digest of
the sources it compiled (`games/engine/.compiled`); `stale()` compares it with the sources on disk, and
`games/checks.py` warns at every `manage.py` command while they differ.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ENGINE = Path(__file__).resolve().parent / "engine"
SKIP = {"__init__.py"}  # only re-exports: stays Python
STAMP = ENGINE / ".compiled"


def modules() -> list[Path]:
    """The engine's modules that are compiled (the bots in `engine/bots/` stay Python)."""
    return sorted(path for path in ENGINE.glob("*.py") if path.name not in SKIP)


def sources_digest() -> str:
    """A digest of those modules' sources."""
    digest = hashlib.sha256()
    for path in modules():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def compiled() -> bool:
    """Whether compiled modules of the engine are there."""
    return any(ENGINE.glob("*.so")) or any(ENGINE.glob("*.pyd"))


def stale() -> bool:
    """Whether compiled modules are there but were built from other sources than those on disk."""
    return compiled() and (not STAMP.exists() or STAMP.read_text().strip() != sources_digest())


def running_compiled() -> bool:
    """Whether this process runs the compiled engine (its modules were imported from extensions)."""
    from games.engine import moves

    return not (moves.__file__ or "").endswith(".py")
