"""Game families rated apart: a preset's family is the start of its name (uno-official, ocho-plato, ...)."""

from __future__ import annotations

from games.engine.presets import PRESETS

FAMILIES = {"uno": "UNO", "ocho": "Ocho"}


def family_of(preset: str) -> str | None:
    """'uno' or 'ocho' for a preset name (see games/engine/presets.py); None for any other."""
    family = preset.split("-", 1)[0]
    return family if family in FAMILIES else None


def presets_of(family: str) -> list[str]:
    return [name for name in PRESETS if family_of(name) == family]
