"""`TableEvent`: what happened at a table, with a public part and an optional private part. (The
tournament's `Event` model is the competition; this is one thing that happened in a hand.)

`visible_to` names the seats that may see `private` (None: everyone). The live layer sends each socket
`event.for_seat(seat)`, spectators `event.public()`.
"""

from __future__ import annotations

from typing import Any


class TableEvent:
    __slots__ = ("kind", "data", "private", "visible_to")

    def __init__(self, kind: str, data: dict[str, Any], private: dict[str, Any] | None = None,
                 visible_to: frozenset[int] | None = None) -> None:
        self.kind = kind
        self.data = data
        self.private = private
        self.visible_to = visible_to

    def public(self) -> dict[str, Any]:
        """The redacted form: the public part only (everything, if the event has no private part)."""
        out = {"kind": self.kind, **self.data}
        if self.private is not None and self.visible_to is None:
            out.update(self.private)
        return out

    def for_seat(self, seat: int) -> dict[str, Any]:
        out = {"kind": self.kind, **self.data}
        if self.private is not None and (self.visible_to is None or seat in self.visible_to):
            out.update(self.private)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "private": self.private,
                "visible_to": None if self.visible_to is None else sorted(self.visible_to)}

    def __repr__(self) -> str:
        return f"TableEvent({self.kind!r}, {self.data!r}, private={self.private!r}, visible_to={self.visible_to!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableEvent) and self.to_dict() == other.to_dict()
