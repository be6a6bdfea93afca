"""Actions: what a seat asks to do. Immutable, hashable, and convertible to and from JSON-safe dicts.

Cards are referenced by code (`R7`, `WD4`, `QH`...), colours by letter (`R`, `Y`, `G`, `B`, or the suits
`S`, `H`, `D`, `C`). `action_from_dict` validates client JSON and raises `MalformedAction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import CARD_ID, COLOUR_CODES
from .errors import MalformedAction


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""
    seat: int

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card from the hand; `colour` is required for a wild card and forbidden otherwise."""

    type: ClassVar[str] = "play"
    card: str
    colour: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card, "colour": self.colour}


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw from the pile (or take the pending draw total when a draw card is aimed at you)."""

    type: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Keep the playable card just drawn and end the turn."""

    type: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class CallUno(Action):
    """Say UNO: before playing the next-to-last card, or after it (self-catch) until someone catches you."""

    type: ClassVar[str] = "call_uno"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "call_uno", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Catch(Action):
    """Catch `target`, who holds one card without having called UNO."""

    type: ClassVar[str] = "catch"
    target: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "catch", "seat": self.seat, "target": self.target}


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the Wild Draw 4 just played on you."""

    type: ClassVar[str] = "challenge"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "challenge", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Accept the Wild Draw 4 just played on you: draw the cards and lose the turn."""

    type: ClassVar[str] = "accept"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "accept", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class ChooseColour(Action):
    """Choose the starting colour when a wild card was turned up first."""

    type: ClassVar[str] = "choose_colour"
    colour: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "choose_colour", "seat": self.seat, "colour": self.colour}


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls for cls in (Play, Draw, Pass, CallUno, Catch, Challenge, Accept, ChooseColour)
}


def _int(d: dict, key: str) -> int:
    value = d.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MalformedAction(f"'{key}' must be a seat number, not {value!r}")
    return value


def _colour(d: dict, key: str, required: bool) -> str | None:
    value = d.get(key)
    if value is None and not required:
        return None
    if value not in COLOUR_CODES:
        raise MalformedAction(f"'{key}' must be one of {', '.join(COLOUR_CODES)}, not {value!r}")
    return value


def action_from_dict(d: Any) -> Action:
    """Build an action from a dict such as `{"type": "play", "seat": 0, "card": "R7"}`."""
    if not isinstance(d, dict):
        raise MalformedAction("an action must be an object")
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}")
    seat = _int(d, "seat")
    allowed = {"type", "seat"}
    if cls is Play:
        allowed |= {"card", "colour"}
        card = d.get("card")
        if not isinstance(card, str) or card not in CARD_ID:
            raise MalformedAction(f"'card' must be a card code such as 'R7' or 'WD4', not {card!r}")
        action: Action = Play(seat, card, _colour(d, "colour", False))
    elif cls is Catch:
        allowed.add("target")
        action = Catch(seat, _int(d, "target"))
    elif cls is ChooseColour:
        allowed.add("colour")
        action = ChooseColour(seat, _colour(d, "colour", True))  # type: ignore[arg-type]
    else:
        action = cls(seat)
    extra = set(d) - allowed
    if extra:
        raise MalformedAction(f"unexpected field(s) for '{kind}': {', '.join(sorted(extra))}")
    return action
