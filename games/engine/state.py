"""The state of one hand: plain lists of card ids, a few ints, and the hand's own random generator.

The draw pile is stored with its top at the END of the list (pop is O(1)); explicit deck orders given to
`new_hand` are written top first and reversed on the way in.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .cards import CARD_ID, CODE
from .rules import RuleSet

# Phases: whose move it is is `turn`; the phase says what that move may be.
PLAY: Final = 0
AFTER_DRAW: Final = 1
CHALLENGE: Final = 2
CHOOSE_COLOUR: Final = 3
OVER: Final = 4
PHASE_NAMES: Final = ("play", "after_draw", "challenge", "choose_colour", "over")

_FIELDS: Final = ("seats", "hands", "pile", "discard", "colour", "turn", "direction", "dealer", "phase", "pending",
           "pending_from", "resume_after", "drawn", "uno", "uno_window", "wd4_from", "wd4_guilty", "reveals",
           "winner", "stalled", "blocked")


def plain_rules(rules: RuleSet) -> bool:
    """Whether `moves.step` makes the commonest moves itself under these rules: no identical-card skips,
    Ocho announcements, stacking or drawing until playable, and the Wild Draw 4 restriction left to the
    challenge (or off)."""
    return not (rules.identical_card_skips or rules.ocho_announcement or rules.stacking != "off"
                or rules.draw_until_playable) and (rules.challenge or rules.wd4_restriction == "none")


class HandState:
    """One hand in progress. Mutated in place by `apply`; use `copy()` to branch."""

    __slots__ = ("rules", *_FIELDS, "rng", "rng_shared", "offered", "quiet", "plain")

    rules: RuleSet
    seats: int
    hands: list[list[int]]
    pile: list[int]  # draw pile, top at the end
    discard: list[int]  # top at the end
    colour: int  # colour in force; -1 while a first-card wild waits for its colour
    turn: int  # the seat that must act (the player hit by a draw card, the challenger...)
    direction: int  # +1: to the left (seat numbers increase), -1: to the right
    dealer: int
    phase: int
    pending: int  # draw total waiting for `turn` (stacking, or a Wild Draw 4 before its challenge)
    pending_from: int  # seat that played the last draw card (Shield sends the pile back there); -1
    resume_after: int  # while a Shield-reflected pile is pending: play continues after this seat; -1
    drawn: int  # card just drawn by `turn` in the after_draw phase; -1
    uno: list[bool]  # seat has called UNO and the call still counts
    uno_window: int  # seat that may be caught for not calling UNO now; -1
    wd4_from: int  # seat whose Wild Draw 4 awaits challenge; -1
    wd4_guilty: bool
    reveals: list[tuple[int, int, tuple[int, ...], str]]  # (to seat, of seat, cards, reason)
    winner: int  # seat that went out (or won a blocked hand); -1
    stalled: int  # consecutive turns in which nobody could play or draw
    blocked: bool  # the hand ended because nobody could play or draw
    rng: random.Random
    # `rng` is also another state's (a copy shares its original's generator until either draws from it:
    # `own_rng`). Copying a generator's 625 words took a third of a live move's copy of the game.
    rng_shared: bool
    # The actions `legal_actions` last listed for this exact state (None once anything changed): `apply`
    # trusts an action found there by identity and skips re-validating it. Not part of the state's data.
    offered: tuple | None
    quiet: bool  # True only inside `apply(..., events=False)`: the commonest events are not built
    plain: bool  # `plain_rules(rules)`, read by `moves.step` at every move. Not part of the state's data.

    def copy(self) -> HandState:
        new = HandState()
        new.rules = self.rules
        new.seats = self.seats
        new.hands = [h[:] for h in self.hands]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.colour = self.colour
        new.turn = self.turn
        new.direction = self.direction
        new.dealer = self.dealer
        new.phase = self.phase
        new.pending = self.pending
        new.pending_from = self.pending_from
        new.resume_after = self.resume_after
        new.drawn = self.drawn
        new.uno = self.uno[:]
        new.uno_window = self.uno_window
        new.wd4_from = self.wd4_from
        new.wd4_guilty = self.wd4_guilty
        new.reveals = self.reveals[:]
        new.winner = self.winner
        new.stalled = self.stalled
        new.blocked = self.blocked
        new.rng = self.rng
        new.rng_shared = self.rng_shared = True
        new.offered = None
        new.quiet = False
        new.plain = self.plain
        return new

    def own_rng(self) -> random.Random:
        """The hand's generator, to draw from: this state's own (a copy of it first, if `copy` shared it)."""
        if self.rng_shared:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    # ---- convenience -------------------------------------------------------------------------------
    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.seats

    def hand_codes(self, seat: int) -> list[str]:
        return [CODE[c] for c in self.hands[seat]]

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.rules.partners else None

    # ---- persistence -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe and complete (includes the draw pile and the generator state: never show it)."""
        d: dict[str, Any] = {"rules": self.rules.to_dict()}
        for name in _FIELDS:
            d[name] = getattr(self, name)
        d["hands"] = [[CODE[c] for c in h] for h in self.hands]
        d["pile"] = [CODE[c] for c in self.pile]
        d["discard"] = [CODE[c] for c in self.discard]
        d["uno"] = list(self.uno)
        d["reveals"] = [[to, of, [CODE[c] for c in cards], why] for to, of, cards, why in self.reveals]
        version, internal, gauss = self.rng.getstate()
        d["rng"] = [version, list(internal), gauss]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandState:
        new = cls()
        new.rules = RuleSet.from_dict(d["rules"])
        for name in _FIELDS:
            setattr(new, name, d[name])
        new.hands = [[CARD_ID[c] for c in h] for h in d["hands"]]
        new.pile = [CARD_ID[c] for c in d["pile"]]
        new.discard = [CARD_ID[c] for c in d["discard"]]
        new.uno = list(d["uno"])
        new.reveals = [(to, of, tuple(CARD_ID[c] for c in cards), why) for to, of, cards, why in d["reveals"]]
        version, internal, gauss = d["rng"]
        new.rng = random.Random()
        new.rng.setstate((version, tuple(internal), gauss))
        new.rng_shared = False
        new.offered = None
        new.quiet = False
        new.plain = plain_rules(new.rules)
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<HandState {self.rules.preset} seats={self.seats} turn={self.turn} "
                f"phase={PHASE_NAMES[self.phase]} top={CODE[self.discard[-1]] if self.discard else None}>")
