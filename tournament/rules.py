"""The rule set an event plays with: its engine preset, its overrides and its target score."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from games import engine

if TYPE_CHECKING:  # annotations only: tournament.models.events imports this module as the models load
    from tournament.models import Event


class RulesRefused(ValueError):
    """The engine refused the event's rules; ``field`` names the form field to show the message on."""

    def __init__(self, message: str, field: str = "rules_overrides"):
        super().__init__(message)
        self.field = field


def target_score_for(event: Event) -> int:
    """Points that win a game of ``event``: the engine's target for its preset with overrides applied."""
    return rules_for_event(event).target


def rules_for_event(event: Event):
    """The engine's rule set for an event, with its overrides and target applied."""
    try:
        rules = engine.get_preset(event.rules_preset)
    except (KeyError, engine.RuleError) as error:
        raise RulesRefused(f"Unknown rules preset {event.rules_preset!r}.", field="rules_preset") from error
    overrides = dict(event.rules_overrides or {})
    if event.target_score:
        overrides["target"] = event.target_score  # the engine calls it `target`
    if not overrides:
        return rules
    try:
        return rules.with_overrides(overrides)
    except engine.RuleError as error:
        field = "target_score" if "target" in str(error).lower() and event.target_score else "rules_overrides"
        raise RulesRefused(str(error), field=field) from error


def unplayable_sizes(rules, sizes) -> str | None:
    """Why tables of these ``sizes`` cannot be played with ``rules`` (the engine's seat limits), or None."""
    refusals = {}
    for size in sorted(set(sizes)):
        try:
            rules.check_seats(size)
        except engine.RuleError as error:
            refusals[size] = str(error)
    if not refusals:
        return None
    sizes = list(map(str, refusals))
    listed = f"{', '.join(sizes[:-1])} or {sizes[-1]}" if len(sizes) > 1 else sizes[0]
    reason = re.sub(r", not \d+$", "", next(iter(refusals.values())))  # the engine's reason names one size
    return f"Tables of {listed} players cannot be played: {reason}."


def check_table_sizes(event: Event) -> None:
    """Raise ``RulesRefused`` (on the table-size field at fault) when the event's table sizes, from the
    smallest to the largest, include one its rules (preset and overrides) cannot be played with."""
    rules = rules_for_event(event)
    sizes = range(event.min_table_size, event.max_table_size + 1)
    problem = unplayable_sizes(rules, sizes)
    if problem:
        too_big = event.max_table_size > rules.max_players or (rules.partners and event.max_table_size != 4)
        raise RulesRefused(problem, field="max_table_size" if too_big else "min_table_size")
