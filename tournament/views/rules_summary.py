"""The rules summary on an event's page, generated from its preset, overrides and the engine's docs.

Nothing here is written by hand per preset: the option list, the defaults and the wording come from the
engine's ``RuleSet.options()``; the event's values come from ``rules_for_event``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from tournament.rules import RulesRefused, rules_for_event

# The options a player wants first; every other option is listed below them.
HEADLINE_OPTIONS = ("hand_size", "target", "scoring", "min_players", "max_players", "stacking", "uno_call")


@dataclass(frozen=True)
class RuleLine:
    name: str
    title: str
    value: str
    doc: str
    changed: bool  # differs from the preset (an event override or its target score)


@dataclass(frozen=True)
class RulesSummary:
    preset: str
    deck: str
    headline: list[RuleLine]
    others: list[RuleLine]
    error: str = ""


def _show(value) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value).replace("_", " ")


def rules_summary(event) -> RulesSummary:
    """The event's rules as lines to show; ``error`` says why when the rules cannot be worked out."""
    try:
        rules = rules_for_event(event)
        preset = engine.get_preset(event.rules_preset)
    except RulesRefused as refused:
        return RulesSummary(event.get_rules_preset_display(), "", [], [], error=str(refused))
    except Exception as error:  # noqa: BLE001 - an engine still being built must not take the page down
        return RulesSummary(event.get_rules_preset_display(), "", [], [], error=f"Rules unavailable: {error}")
    lines = {}
    for option in type(rules).options():
        name = option["name"]
        value = getattr(rules, name)
        lines[name] = RuleLine(
            name=name,
            title=name.replace("_", " ").capitalize().replace("Wd4", "Wild Draw 4").replace("Uno", "UNO"),
            value=_show(value),
            doc=option["doc"],
            changed=value != getattr(preset, name),
        )
    headline = [lines.pop(name) for name in HEADLINE_OPTIONS if name in lines]
    return RulesSummary(
        preset=event.get_rules_preset_display(),
        deck=_show(rules.deck),
        headline=headline,
        others=sorted(lines.values(), key=lambda line: (not line.changed, line.name)),
    )
