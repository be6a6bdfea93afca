"""The engine rules a bracket stage's tables play: the event's rules changed by the stage's game format
(Challenge UNO, partners, a partner rotation's blocks).
"""

from __future__ import annotations

from games import engine
from tournament.generators.brackets import CHALLENGE, GAME_FORMATS, PARTNERS, ROTATIONS, BracketError
from tournament.generators.partners import ROTATION_TARGET
from tournament.models import Event
from tournament.rules import rules_for_event


def rules_for_format(event: Event, game_format: str) -> engine.RuleSet:
    """The engine rule set a table of this format plays (the event's rules with the format's options)."""
    rules = rules_for_event(event)
    overrides = {CHALLENGE: {"scoring": "elimination", "partners": False},
                 PARTNERS: {"partners": True, "scoring": "winner_takes"}}.get(game_format)
    if game_format in ROTATIONS:  # blocks of four hands with partners, no target (see services.rotations)
        overrides = {"partners": True, "scoring": "winner_takes", "target": ROTATION_TARGET}
    if not overrides:
        return rules
    try:
        return rules.with_overrides(overrides)
    except engine.RuleError as error:
        raise BracketError(f"{GAME_FORMATS[game_format]} cannot be played with this event's rules: {error}") from error
