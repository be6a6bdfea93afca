"""The hidden-card rule as a check: which card codes a message shows under the keys that carry hidden
cards, and which codes a seat was entitled to see according to a game's move log (its own deals and
draws, and reveals meant for it). Spectators are entitled to none. The check reads any frame whole,
wherever the keys are: a `state`, and an `update` that carries only the view's fields that changed (a
changed `hand`, `drawn` or `reveals` comes under its own key, whole or as its changed items by index).

Used by the tests (tests/games/test_full_game.py) and the load harness (bench/live/) to check that no
socket ever received a card it should not have seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PRIVATE_KEYS = frozenset({"hand", "cards", "revealed", "partner_hand", "drawn"})


def private_codes(obj: Any, out: set[str] | None = None) -> set[str]:
    """Every card code found under a key that carries hidden cards, anywhere in `obj` (added to `out`)."""
    out = set() if out is None else out
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in PRIVATE_KEYS:
                _codes(value, out)
            private_codes(value, out)
    elif isinstance(obj, list):
        for item in obj:
            private_codes(item, out)
    return out


def _codes(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for item in value:
            _codes(item, out)
    elif isinstance(value, dict) and all(key.isdigit() for key in value):  # an update's changed items
        for item in value.values():  # of a list, by index (`{"3": "R5"}`)
            _codes(item, out)


def known_cards(moves: Iterable, game_seat: int | None) -> set[str]:
    """The codes `game_seat` was entitled to see, from the stored moves (`LiveMove` rows) of one game."""
    from games.services.seats import hand_seat_of  # here: private_codes works before Django is set up

    known: set[str] = set()
    if game_seat is None:
        return known
    for move in moves:
        hand_seat = hand_seat_of(move.hand_seats, game_seat)
        for event in move.events:
            private = event.get("private")
            if private is None:
                continue
            visible = event.get("visible_to")
            if visible is None or hand_seat in visible:
                private_codes(private, known)
    return known
