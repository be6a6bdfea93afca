"""A game (match) to the target: hands dealt one after another, the deal moving to the left, scored per
the rule set until someone reaches the target. Pure and serialisable like a hand."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .actions import Action, action_from_dict
from .deal import HandSetup, new_hand
from .dispatch import apply as apply_action
from .errors import EngineError
from .events import TableEvent
from .moves import step as step_hand
from .rules import RuleSet
from .scoring import score_hand
from .state import OVER, HandState


@dataclass(frozen=True)
class HandResult:
    """One finished hand in game seats. `points_left`/`points_won` are None for seats not dealt in."""

    number: int
    dealer: int
    winner: int
    team: int | None
    blocked: bool
    points_left: tuple[int | None, ...]
    points_won: tuple[int | None, ...]
    totals: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer, "winner": self.winner, "team": self.team,
                "blocked": self.blocked, "points_left": list(self.points_left),
                "points_won": list(self.points_won), "totals": list(self.totals)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandResult:
        return cls(d["number"], d["dealer"], d["winner"], d["team"], d["blocked"], tuple(d["points_left"]),
                   tuple(d["points_won"]), tuple(d["totals"]))


class Game:
    """Use `Game.start(rules, seats, seed)`; act with `apply` using the seat numbers of the current hand
    (`hand_seats[i]` is the game seat sitting at hand seat i: they differ once Challenge UNO eliminates)."""

    def __init__(self, rules: RuleSet, seats: int, seed: int) -> None:
        rules.check_seats(seats)
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.totals = [0] * seats
        self.active = list(range(seats))  # game seats still playing (Challenge UNO eliminates)
        self.results: list[HandResult] = []
        self.winners: list[int] = []
        self.dealer: int | None = None  # game seat of the current hand's dealer
        self.hand: HandState | None = None
        self.setup: HandSetup | None = None

    @classmethod
    def start(cls, rules: RuleSet, seats: int, seed: int, events: bool = True) -> tuple[Game, list[TableEvent]]:
        """A new game with its first hand dealt, and that deal's events (`events=False`: none built)."""
        game = cls(rules, seats, seed)
        return game, game.next_hand(events=events)

    # ---- flow --------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def hand_seats(self) -> list[int]:
        return list(self.active)

    def hand_seed(self, number: int) -> int:
        return (self.seed * 1_000_003 + number * 7919 + 17) % (2**63)

    def next_hand(self, *, seed: int | None = None, events: bool = True) -> list[TableEvent]:
        """Deal the next hand: the first dealer is found by drawing, then the deal passes to the left.

        `seed` shuffles this hand instead of `hand_seed(number)` (the live layer draws a secret seed per
        hand, so revealing one hand's seed after it tells nothing about the next). `events=False`: the same
        hand, its opening events not built (`new_hand`; [] is returned)."""
        if self.over:
            raise EngineError("the game is over")
        if self.hand is not None and self.hand.phase != OVER:
            raise EngineError("the current hand is still being played")
        number = len(self.results)
        if self.dealer is None:
            hand_dealer = None
        else:
            later = [s for s in self.active if s > self.dealer]
            hand_dealer = self.active.index(later[0] if later else self.active[0])
        hand_seed = self.hand_seed(number) if seed is None else seed
        self.setup = setup = HandSetup(self.rules, len(self.active), hand_seed, None, hand_dealer)
        if events:
            self.hand, happened = setup.start()
        else:
            self.hand, happened = new_hand(setup.rules, setup.seats, seed=hand_seed, dealer=hand_dealer), []
        self.dealer = self.active[self.hand.dealer]
        return happened

    def apply(self, action: Action, events: bool = True) -> list[TableEvent]:
        """Apply an action to the current hand; when it ends, score it (a `hand_scored` event follows).
        `events=False`: the same, returning no events (see `engine.apply`)."""
        if self.hand is None or self.over:
            raise EngineError("the game is over" if self.over else "no hand has been dealt")
        happened = apply_action(self.hand, action, events)
        if self.hand.phase == OVER:
            scored = self._score(events)
            if scored is not None:
                happened.append(scored)
        return happened

    def step(self, index: Any) -> tuple:
        """Make the `index`-th move of `legal_moves(self.hand)` (`engine.step`: the move `apply(...,
        events=False)` makes, by position), score the hand when it ends, and return the moves of the
        position it leads to (`()` once the hand is over). `IllegalAction` (nothing changed) for an index
        that is not a listed move, as once the hand (or the game) is over."""
        hand = self.hand
        if hand is None:
            raise EngineError("no hand has been dealt")
        moves = step_hand(hand, index)
        if hand.phase == OVER:
            self._score(False)
        return moves

    def _score(self, event: bool) -> TableEvent | None:
        """Score the finished hand into the game; its `hand_scored` event when `event` (else None, not
        built)."""
        hand = self.hand
        assert hand is not None
        score = score_hand(hand)
        rules = self.rules
        left: list[int | None] = [None] * self.seats
        won: list[int | None] = [None] * self.seats
        for i, s in enumerate(self.active):
            left[s] = score.points_left[i]
            won[s] = score.points_won[i]
            self.totals[s] += score.points_won[i]
        winner = self.active[score.winner]
        target = rules.target
        if rules.scoring == "winner_takes":
            if max(self.totals) >= target:
                best = max(self.totals)
                self.winners = [s for s in range(self.seats) if self.totals[s] == best]
        elif rules.scoring == "running_total":
            if max(self.totals) >= target:
                low = min(self.totals)
                self.winners = [s for s in range(self.seats) if self.totals[s] == low]
        else:
            survivors = [s for s in self.active if self.totals[s] < target]
            self.active = survivors or [winner]
            if len(self.active) == 1:
                self.winners = list(self.active)
        result = HandResult(len(self.results), self.dealer if self.dealer is not None else -1, winner,
                            score.team, score.blocked, tuple(left), tuple(won), tuple(self.totals))
        self.results.append(result)
        if not event:
            return None
        data = result.to_dict()
        data["game_over"] = self.over
        data["winners"] = list(self.winners)
        data["eliminated"] = [s for s in range(self.seats) if s not in self.active]
        return TableEvent("hand_scored", data)

    def result(self) -> dict[str, Any]:
        """The game's standing: winners (several on a tie, both partners for a team), every total."""
        return {"over": self.over, "winners": list(self.winners), "totals": list(self.totals),
                "hands": len(self.results), "active": list(self.active)}

    # ---- persistence -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(), "seats": self.seats, "seed": self.seed, "totals": list(self.totals),
            "active": list(self.active), "results": [r.to_dict() for r in self.results],
            "winners": list(self.winners), "dealer": self.dealer,
            "hand": None if self.hand is None else self.hand.to_dict(),
            "setup": None if self.setup is None else self.setup.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        game = cls(RuleSet.from_dict(d["rules"]), d["seats"], d["seed"])
        game.totals = list(d["totals"])
        game.active = list(d["active"])
        game.results = [HandResult.from_dict(r) for r in d["results"]]
        game.winners = list(d["winners"])
        game.dealer = d["dealer"]
        game.hand = None if d["hand"] is None else HandState.from_dict(d["hand"])
        game.setup = None if d["setup"] is None else HandSetup.from_dict(d["setup"])
        return game

    def replay(self, actions: Iterable[dict[str, Any]]) -> None:
        """Apply a stored log of action dicts (`Action.to_dict()`), in order, without building events: the
        game a checkpoint (`to_dict()`) had become by the end of the log."""
        for action in actions:
            self.apply(action_from_dict(action), events=False)

    def copy(self) -> Game:
        """An independent copy (changing one never changes the other). The rule set, the hand setup and the
        hand results are immutable and shared; the hand in play is copied (`HandState.copy`)."""
        new = Game(self.rules, self.seats, self.seed)
        new.rules, new.seats, new.seed = self.rules, self.seats, self.seed
        new.totals, new.active = list(self.totals), list(self.active)
        new.results, new.winners = list(self.results), list(self.winners)
        new.dealer, new.setup = self.dealer, self.setup
        new.hand = None if self.hand is None else self.hand.copy()
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
