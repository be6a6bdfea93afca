"""The rules engine: pure Python, no Django, no I/O; deterministic from a seed or an explicit deck order.

Typical use::

    from games.engine import get_preset, new_hand, legal_actions, apply, view_for
    state = new_hand(get_preset("uno-official"), 4, seed=42)
    events = apply(state, legal_actions(state, state.turn)[0])
"""

from .actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    action_from_dict,
)
from .cards import CARD_ID, CODE, COLOUR_CODES, card_code, card_id
from .deal import HandSetup, new_hand, replay, start_hand
from .decks import arrange_deck, deck_codes
from .dispatch import apply
from .errors import EngineError, IllegalAction, MalformedAction, RuleError
from .events import TableEvent
from .game import Game, HandResult
from .legal import legal_actions
from .moves import legal_moves, step
from .presets import PRESET_CHOICES, PRESETS, get_preset, preset_label
from .rules import RuleSet
from .scoring import HandScore, points_in_hands, score_hand
from .situation import situation
from .state import HandState
from .views import spectator_view, view_for

__all__ = [
    "Accept", "Action", "CallUno", "Catch", "Challenge", "ChooseColour", "Draw", "Pass", "Play",
    "action_from_dict", "CARD_ID", "CODE", "COLOUR_CODES", "card_code", "card_id", "HandSetup", "new_hand",
    "replay", "start_hand", "arrange_deck", "deck_codes", "EngineError", "IllegalAction", "MalformedAction",
    "RuleError", "TableEvent", "Game", "HandResult", "legal_actions", "legal_moves", "step", "apply", "PRESETS", "PRESET_CHOICES", "preset_label",
    "get_preset", "RuleSet",
    "HandScore", "points_in_hands", "score_hand", "situation", "HandState", "spectator_view", "view_for",
]
