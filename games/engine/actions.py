"""Actions: what a seat asks to do. Immutable, hashable, and convertible to and from JSON-safe dicts.

Cards are referenced by code (`R7`, `WD4`, `QH`...), colours by letter (`R`, `Y`, `G`, `B`, or the suits
`S`, `H`, `D`, `C`). `action_from_dict` validates client JSON and raises `MalformedAction`.

Plain classes rather than dataclasses: mypyc (`tools/compile_engine.py`) compiles them to native classes,
which it cannot do for a frozen dataclass with a class-level `type`. Their fields are `Final` (mypy
refuses an assignment to one); equality, hashing and `repr` are by type and fields, as a dataclass's.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from .cards import CARD_ID, COLOUR_CODES
from .errors import MalformedAction


class Action:
    __slots__ = ("seat",)
    type: ClassVar[str] = ""
    names: ClassVar[tuple[str, ...]] = ("seat",)  # the fields' names, in `fields()`'s order

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat

    def fields(self) -> tuple[Any, ...]:
        """The action's fields in order (seat first)."""
        return (self.seat,)

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.fields() == other.fields()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.type, self.fields()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.names, self.fields(), strict=True))
        return f"{type(self).__name__}({shown})"


class Play(Action):
    """Play a card from the hand; `colour` is required for a wild card and forbidden otherwise."""

    __slots__ = ("card", "colour")
    type: ClassVar[str] = "play"
    names: ClassVar[tuple[str, ...]] = ("seat", "card", "colour")

    def __init__(self, seat: int, card: str, colour: str | None = None) -> None:
        super().__init__(seat)
        self.card: Final = card
        self.colour: Final = colour

    def fields(self) -> tuple[Any, ...]:
        return (self.seat, self.card, self.colour)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card, "colour": self.colour}


class Draw(Action):
    """Draw from the pile (or take the pending draw total when a draw card is aimed at you)."""

    __slots__ = ()
    type: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}


class Pass(Action):
    """Keep the playable card just drawn and end the turn."""

    __slots__ = ()
    type: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


class CallUno(Action):
    """Say UNO: before playing the next-to-last card, or after it (self-catch) until someone catches you."""

    __slots__ = ()
    type: ClassVar[str] = "call_uno"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "call_uno", "seat": self.seat}


class Catch(Action):
    """Catch `target`, who holds one card without having called UNO."""

    __slots__ = ("target",)
    type: ClassVar[str] = "catch"
    names: ClassVar[tuple[str, ...]] = ("seat", "target")

    def __init__(self, seat: int, target: int) -> None:
        super().__init__(seat)
        self.target: Final = target

    def fields(self) -> tuple[Any, ...]:
        return (self.seat, self.target)

    def to_dict(self) -> dict[str, Any]:
        return {"type": "catch", "seat": self.seat, "target": self.target}


class Challenge(Action):
    """Challenge the Wild Draw 4 just played on you."""

    __slots__ = ()
    type: ClassVar[str] = "challenge"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "challenge", "seat": self.seat}


class Accept(Action):
    """Accept the Wild Draw 4 just played on you: draw the cards and lose the turn."""

    __slots__ = ()
    type: ClassVar[str] = "accept"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "accept", "seat": self.seat}


class ChooseColour(Action):
    """Choose the starting colour when a wild card was turned up first."""

    __slots__ = ("colour",)
    type: ClassVar[str] = "choose_colour"
    names: ClassVar[tuple[str, ...]] = ("seat", "colour")

    def __init__(self, seat: int, colour: str) -> None:
        super().__init__(seat)
        self.colour: Final = colour

    def fields(self) -> tuple[Any, ...]:
        return (self.seat, self.colour)

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
