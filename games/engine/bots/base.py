"""The bot interface and the card facts bots read from card codes (public data, never the state)."""

from __future__ import annotations

import random
from typing import Any

from .. import cards as C

# Action types a seat may take when it is not its turn: they never end anyone's turn.
OUT_OF_TURN = frozenset(("catch", "call_uno"))


class Bot:
    """A player that knows only its view. Subclasses implement `act`.

    `act(view)` returns one of the dicts in `view["legal_actions"]` (unchanged), or None to do nothing;
    None is allowed only when it is not the seat's turn (then only catching or calling UNO is possible).
    """

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


def on_turn(view: dict[str, Any]) -> bool:
    return view["turn"] == view["seat"] and view["phase"] != "over"


def card_colour(code: str) -> int:
    """Colour index of a card code (see cards.COLOUR_CODES); -1 for a wild."""
    return C.COLOUR[C.CARD_ID[code]]


def card_kind(code: str) -> int:
    return C.KIND[C.CARD_ID[code]]


def card_points(code: str) -> int:
    return C.POINTS[C.CARD_ID[code]]


def is_wild(code: str) -> bool:
    return C.IS_WILD[C.CARD_ID[code]]
