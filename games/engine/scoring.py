"""Scoring a finished hand: points left in each hand and points won, per the rule set's scoring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import cards as C
from .errors import EngineError
from .state import OVER, HandState

# blank_points -> card id -> the card's points (`RuleSet.card_points`), built once per value
_POINTS: dict[int, list[int]] = {}


def points_in_hands(state: HandState) -> list[int]:
    blank = state.rules.blank_points
    points = _POINTS.get(blank)
    if points is None:
        points = _POINTS[blank] = [blank if kind == C.BLANK else p for kind, p in zip(C.KIND, C.POINTS, strict=True)]
    value = points.__getitem__
    return [sum(map(value, hand)) for hand in state.hands]


@dataclass(frozen=True)
class HandScore:
    """A finished hand, seats numbered as in the hand.

    `points_won[s]`: under 'winner_takes', what seat s scores (the winner, or both partners of the winning
    team, get the opponents' points; everyone else 0); under running totals, the points s is caught with.
    """

    winner: int
    team: int | None
    blocked: bool
    points_left: tuple[int, ...]
    points_won: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "team": self.team, "blocked": self.blocked,
                "points_left": list(self.points_left), "points_won": list(self.points_won)}


def score_hand(state: HandState) -> HandScore:
    if state.phase != OVER:
        raise EngineError("the hand is not over yet")
    rules = state.rules
    left = points_in_hands(state)
    winner = state.winner
    n = state.seats
    if rules.scoring == "winner_takes":
        if rules.partners:
            team = winner % 2
            gain = sum(p for s, p in enumerate(left) if s % 2 != team)
            won = tuple(gain if s % 2 == team else 0 for s in range(n))
            return HandScore(winner, team, state.blocked, tuple(left), won)
        gain = sum(p for s, p in enumerate(left) if s != winner)
        won = tuple(gain if s == winner else 0 for s in range(n))
    else:
        won = tuple(left)
    return HandScore(winner, None, state.blocked, tuple(left), won)
