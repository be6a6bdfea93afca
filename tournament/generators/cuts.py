"""Who goes on from a table of a bracket stage: pure functions over plain ids and numbers, no database.

- ``rank_table`` orders one table's players: those who took part above its no-shows whatever the points,
  then by its game (format-aware);
- ``cut`` takes the top places and reports a tie straddling the cut (to be broken by a recorded draw or a
  tiebreak hand); ``draw_order`` is the reproducible random draw;
- ``next_stage_seeds`` orders the players who go on for the next stage's snake; ``stage_outcome`` runs a
  whole stage.

The shape of the bracket (stages, byes, seating) is ``tournament.generators.brackets``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tournament.generators.brackets import CHALLENGE, STANDARD, BracketFatalError, StagePlan

PlayerId = TypeVar("PlayerId", bound=Hashable)


@dataclass(frozen=True)
class TableResult:
    """One player's result at a table's game(s), as ranking needs it."""

    player_id: Hashable
    points_won: int = 0
    games_won: int = 0
    hands_won: int = 0
    points_left: int = 0
    eliminated_at: int | None = None  # Challenge UNO: the hand at which the player reached the target
    seed: int = 0  # the player's seed in the bracket (lower is stronger); never decides a tie
    took_part: bool = True  # False: a no-show at this table (only the turn timer or a bot played the seat)


def result_key(result: TableResult, game_format: str) -> tuple:
    """Sort key (smaller is better); equal keys are a tie the documented tiebreaks cannot break. Whoever
    took part at the table comes before its no-shows, whatever the points (docs/rules.md, "Stages")."""
    absent = not result.took_part
    if game_format == CHALLENGE:
        # Last one standing first, then whoever was eliminated later, then fewer points caught.
        out = result.eliminated_at
        return (absent, out is not None, -(out or 0), result.points_won, -result.hands_won)
    return (absent, -result.points_won, -result.games_won, -result.hands_won, result.points_left)


def rank_table(results: Sequence[TableResult], game_format: str = STANDARD) -> list[list[TableResult]]:
    """The table's players in groups of equal rank, best first."""
    ordered = sorted(results, key=lambda r: (result_key(r, game_format), r.seed))
    groups: list[list[TableResult]] = []
    for result in ordered:
        if groups and result_key(groups[-1][0], game_format) == result_key(result, game_format):
            groups[-1].append(result)
        else:
            groups.append([result])
    return groups


@dataclass
class Tie:
    """Players equal on every tiebreak straddling a cut: ``places`` of them go on."""

    players: list
    places: int
    order: list | None = None  # the resolved order (best first), None while unresolved

    @property
    def key(self) -> str:
        return ",".join(str(p) for p in sorted(self.players, key=str))

    @property
    def digest(self) -> str:
        """The key's SHA-256 in hex: 64 characters naming the tie however many players it holds (what a
        recorded draw is stored and found by)."""
        return hashlib.sha256(self.key.encode()).hexdigest()


@dataclass
class CutResult:
    chosen: list
    rest: list
    tie: Tie | None = None
    complete: bool = True


def cut(groups: Sequence[Sequence[PlayerId]], places: int,
        resolve: Callable[[Tie], list | None]) -> CutResult:
    """Take ``places`` players from rank ``groups`` (best first); a group straddling the cut is ordered
    by ``resolve`` (a recorded draw or tiebreak hand). When ``resolve`` returns None the cut waits."""
    chosen: list = []
    rest: list = []
    tie = None
    complete = True
    for group in groups:
        group = list(group)
        room = places - len(chosen)
        if room <= 0 or not complete:
            rest.extend(group)
        elif len(group) <= room:
            chosen.extend(group)
        else:
            tie = Tie(players=group, places=room)
            tie.order = resolve(tie)
            if tie.order is None:
                complete = False
                rest.extend(group)
            else:
                if sorted(map(repr, tie.order)) != sorted(map(repr, group)):
                    raise BracketFatalError("a tie was resolved with other players than were tied")
                chosen.extend(tie.order[:room])
                rest.extend(tie.order[room:])
    return CutResult(chosen, rest, tie, complete)


def draw_order(players: Sequence[PlayerId], seed: int) -> list[PlayerId]:
    """A random order of tied players, reproducible from ``seed`` (which is recorded)."""
    ordered = sorted(players, key=repr)
    random.Random(seed).shuffle(ordered)
    return ordered


def new_draw_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def next_stage_seeds(byes: Sequence[PlayerId], advancers: Sequence[Sequence[PlayerId]],
                     seed_of: Mapping[PlayerId, int]) -> list[PlayerId]:
    """Next stage's seeded field: byes first, then table winners, then seconds, … (each by seed)."""
    ordered = sorted(byes, key=lambda p: seed_of[p])
    depth = max((len(a) for a in advancers), default=0)
    for place in range(depth):
        ordered.extend(sorted((a[place] for a in advancers if len(a) > place), key=lambda p: seed_of[p]))
    return ordered


@dataclass
class StageOutcome:
    """What one stage produced: who goes on from each table, ties, and whether it is complete."""

    advancers: list[list] = field(default_factory=list)
    ties: list[Tie | None] = field(default_factory=list)
    complete: bool = True


def stage_outcome(stage: StagePlan, table_results: Sequence[Sequence[TableResult] | None],
                  game_format: str, resolve_for_table: Callable[[int, Tie], list | None]) -> StageOutcome:
    """Advancers of every table of ``stage``; ``None`` in ``table_results`` is a table still playing."""
    outcome = StageOutcome()
    for index, results in enumerate(table_results):
        if results is None:
            outcome.advancers.append([])
            outcome.ties.append(None)
            outcome.complete = False
            continue
        groups = [[r.player_id for r in group] for group in rank_table(results, game_format)]
        result = cut(groups, stage.advancing if stage.is_final else stage.advance_per_table,
                     lambda tie, i=index: resolve_for_table(i, tie))
        outcome.advancers.append(result.chosen)
        outcome.ties.append(result.tie)
        outcome.complete &= result.complete
    return outcome
