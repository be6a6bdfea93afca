"""The five presets, one per rule document (see /docs/rules.md for the sources and every choice)."""

from __future__ import annotations

from .errors import RuleError
from .rules import RuleSet

UNO_OFFICIAL = RuleSet(
    preset="uno-official", deck="uno", hand_size=7, max_players=10, target=500, uno_penalty=4,
    wd4_restriction="color", challenge=True, first_card_wild="first_player_chooses", first_card_wd4="return",
    first_card_draw2="draw", first_card_reverse="dealer_right_first",
)

UNO_400 = RuleSet(
    preset="uno-400", deck="uno", hand_size=7, max_players=10, target=400, uno_penalty=2,
    wd4_restriction="color", challenge=True, first_card_wd4="return", first_card_draw2="draw",
    first_card_reverse="dealer_right_first",
)

UNO_CLASSROOM = RuleSet(
    preset="uno-classroom", deck="uno", hand_size=7, max_players=10, target=500, uno_penalty=2,
    uno_recall=True, wd4_restriction="color", challenge=True, two_player_rules=False, pass_after_draw=False,
    first_card_wd4="reshuffle", first_card_draw2="draw_and_skip", first_card_reverse="dealer_first",
)

OCHO_PLATO = RuleSet(
    preset="ocho-plato", deck="plato", hand_size=8, max_players=4, target=500, uno_call=False, uno_penalty=0,
    wd4_restriction="none", challenge=False, stacking="draw2_draw4", first_card_draw2="draw_and_skip",
    shield_out_sends_back=True,
)

OCHO_CARDS = RuleSet(
    preset="ocho-cards", deck="cards", decks=2, jokers=2, hand_size=7, max_players=10, target=500,
    uno_penalty=4, wd4_restriction="none", challenge=False, reneging=False, pass_after_draw=False,
    draw_until_playable=True, stacking="draw2", wd4_unavoidable=True, identical_card_skips=True,
    first_card_draw2="draw_and_skip", ocho_announcement=True,
)

PRESETS: dict[str, RuleSet] = {r.preset: r for r in (UNO_OFFICIAL, UNO_400, UNO_CLASSROOM, OCHO_PLATO, OCHO_CARDS)}
for _r in PRESETS.values():
    _r.validate()

# The presets as a person chooses them (an event's rules, a practice game), in this order.
PRESET_CHOICES = [
    ("uno-official", "UNO, official rules"),
    ("uno-400", "UNO to 400 (mini-project rules)"),
    ("uno-classroom", "UNO (classroom assignment rules)"),
    ("ocho-plato", "Ocho as played in the Plato app"),
    ("ocho-cards", "Ocho on standard playing cards"),
]


def preset_label(name: str) -> str:
    """The preset's name as people read it ("UNO, official rules"); the internal name if it has none."""
    return dict(PRESET_CHOICES).get(name, name)


def get_preset(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(f"unknown preset '{name}'; the presets are: {', '.join(PRESETS)}") from None
