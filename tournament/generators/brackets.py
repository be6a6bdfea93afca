"""Brackets of tables: pure functions over plain ids and numbers, no database.

A bracket round is a sequence of stages. Each stage seats its field at tables (sizes within the event's
bounds, differing by at most one); the top ``m`` of every table (``advance_per_table``, set per stage)
go on to the next stage, until one final table decides the champion. A field that cannot be seated at
all gets byes, the fewest that work, and they go to the highest seeds (who skip straight to the next
stage).

- ``plan_stages`` promises the shape: tables per stage, byes, how many go on;
- ``propose_field`` suggests a field size that makes full tables all the way to one final table;
- ``seat_stage`` spreads a seeded field over a stage's tables in snake order, so top seeds meet as late
  as possible;
- who goes on from a table (ranking, the cut, ties and draws) is ``tournament.generators.cuts``.

Two error types, as in Tabbycat's draw generators: ``BracketError`` for the organizer to read and fix,
``BracketFatalError`` (an ``AssertionError``) for "cannot happen".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from tournament.generators.seating import SeatingError, table_sizes

PlayerId = TypeVar("PlayerId", bound=Hashable)

STANDARD = "standard"
CHALLENGE = "challenge"
PARTNERS = "partners"
PARTNERS_ROTATION = "partners_rotation"
PARTNERS_ROTATION_8 = "partners_rotation_8"
GAME_FORMATS = {
    STANDARD: "One game to the target (the event's rules)",
    CHALLENGE: "Challenge UNO: caught points add up, a player at the target is out, last one left wins",
    PARTNERS: "Partners: two teams of two, partners opposite (tables of 4)",
    PARTNERS_ROTATION: "Partner rotation: every other player as partner for four hands (tables of 4: 12 hands)",
    PARTNERS_ROTATION_8: "Partner rotation for eight: two tables of 4 that change every four hands, every other "
                         "player as partner for four hands (groups of 8: 28 hands)",
}
FOUR_ONLY = {PARTNERS, PARTNERS_ROTATION}
ROTATIONS = {PARTNERS_ROTATION: 4, PARTNERS_ROTATION_8: 8}  # format -> players ranked together (a group)
GROUPS_OF_8 = {PARTNERS_ROTATION_8}  # a stage "table" is a group of 8 playing at two tables of 4


def stage_bounds(game_format: str, min_size: int, max_size: int) -> tuple[int, int]:
    """Bounds of a stage's ranking units: the event's table sizes, or groups of exactly 8 for the
    eight-player rotation (whose games are played at tables of 4, within the event's bounds or not)."""
    return (8, 8) if game_format in GROUPS_OF_8 else (min_size, max_size)


class BracketError(ValueError):
    """The bracket cannot be built as asked; the message tells the organizer what to change."""


class BracketFatalError(AssertionError):
    """The bracket came out wrong: a bug, never the organizer's doing."""


@dataclass(frozen=True)
class StagePlan:
    """One stage: ``field`` players, of whom the ``byes`` highest seeds skip it; the rest sit at tables."""

    number: int
    field: int
    table_sizes: tuple[int, ...]
    byes: int
    advance_per_table: int  # the final's is 1: its winner is the champion
    is_final: bool = False

    @property
    def tables(self) -> int:
        return len(self.table_sizes)

    @property
    def advancing(self) -> int:
        """Players in the next stage (byes included); 1 for the final (the champion)."""
        return 1 if self.is_final else self.byes + self.tables * self.advance_per_table


@dataclass(frozen=True)
class BracketPlan:
    stages: tuple[StagePlan, ...]
    min_size: int
    max_size: int

    @property
    def field(self) -> int:
        return self.stages[0].field

    def describe(self, format_of: Callable[[int], str] | None = None) -> list[str]:
        """One line per stage; with ``format_of(stage number)`` each line says what the stage plays."""
        lines = []
        for stage in self.stages:
            sizes = "/".join(str(s) for s in sorted(set(stage.table_sizes), reverse=True))
            game_format = format_of(stage.number) if format_of else STANDARD
            unit = "group" if game_format in GROUPS_OF_8 else "table"
            text = f"Stage {stage.number}: {stage.field} players, {stage.tables} {unit}{'s' * (stage.tables != 1)} of {sizes}"
            if game_format in GROUPS_OF_8:
                text += " (each at two tables of 4)"
            if stage.byes:
                text += f", {stage.byes} bye{'s' * (stage.byes != 1)} to the top seed{'s' * (stage.byes != 1)}"
            text += ": the winner is champion" if stage.is_final else f", top {stage.advance_per_table} of each {unit} go on"
            if format_of:
                text += f" · {GAME_FORMATS[game_format].split(':')[0]}"
            lines.append(text)
        return lines


def _check_bounds(min_size: int, max_size: int) -> None:
    if min_size < 2:
        raise BracketError("A table needs at least 2 seats.")
    if min_size > max_size:
        raise BracketError(f"The smallest table ({min_size}) cannot be larger than the largest ({max_size}).")


def sizes_with_byes(count: int, min_size: int, max_size: int) -> tuple[tuple[int, ...], int]:
    """Table sizes for ``count`` players and the number of byes: byes only when no seating works."""
    for byes in range(0, count - min_size + 1):
        try:
            return tuple(table_sizes(count - byes, min_size, max_size)), byes
        except SeatingError:
            continue
    raise BracketError(f"{count} players cannot sit at tables of {min_size} to {max_size}.")


def _default_advance(sizes: Sequence[int], byes: int, min_size: int, max_size: int) -> int:
    """The fewest per table that still make a next stage which can be seated (1 where possible)."""
    smallest = min(sizes)
    for m in range(1, smallest):
        following = byes + len(sizes) * m
        if following >= min_size:
            return m
    return smallest - 1


def plan_stages(field: int, min_size: int, max_size: int, advance: Sequence[int] | None = None,
                bounds_for: Callable[[int], tuple[int, int]] | None = None) -> BracketPlan:
    """The stages of a bracket for ``field`` players at tables of ``min_size``..``max_size``.

    ``advance`` lists how many go on from each table, stage by stage; the last value repeats for later
    stages, and where it is missing the fewest that keep the next stage seatable (1 where possible).
    ``bounds_for(stage number)`` may give a stage other bounds (groups of 8 for the eight-player rotation).
    """
    _check_bounds(min_size, max_size)
    if field < 2:
        raise BracketError("A bracket needs at least 2 players.")
    if field < min_size:
        raise BracketError(f"{field} players are too few for a table of at least {min_size}.")
    advance = list(advance or [])
    if any(m < 1 for m in advance):
        raise BracketError("At least one player must go on from every table.")
    stages: list[StagePlan] = []
    current = field
    event_bounds = (min_size, max_size)
    while True:
        number = len(stages) + 1
        min_size, max_size = bounds_for(number) if bounds_for else event_bounds
        if current <= max_size:
            if current < min_size:
                raise BracketError(
                    f"Stage {number} (the final) would have {current} player{'s' * (current != 1)}, fewer than "
                    f"the smallest table ({min_size}): let more players go on from each table of stage "
                    f"{number - 1}."
                )
            stages.append(StagePlan(number, current, (current,), 0, 1, is_final=True))
            break
        sizes, byes = sizes_with_byes(current, min_size, max_size)
        index = number - 1
        m = (advance[index] if index < len(advance) else advance[-1]) if advance else _default_advance(
            sizes, byes, min_size, max_size)
        if m >= min(sizes):
            raise BracketError(
                f"Stage {number} has tables of {min(sizes)}: at most {min(sizes) - 1} can go on from each "
                f"(you asked for {m})."
            )
        following = byes + len(sizes) * m
        if following >= current:
            raise BracketFatalError(f"stage {number} does not shrink the field ({current} → {following})")
        stages.append(StagePlan(number, current, sizes, byes, m))
        current = following
    return BracketPlan(tuple(stages), *event_bounds)


@dataclass(frozen=True)
class FieldProposal:
    field: int
    advance_per_table: int
    stages: int


def propose_field(played: int, min_size: int, max_size: int) -> FieldProposal:
    """A field of at most ``played`` players that fills every table up to one final table.

    Tables of the largest size throughout, ``m`` going on from each: the largest such field wins, and
    among equal fields the one with fewer stages. Falls back to everyone who played.
    """
    _check_bounds(min_size, max_size)
    if played < min_size:
        raise BracketError(f"Only {played} played: too few for a table of at least {min_size}.")
    best: FieldProposal | None = None
    for final in range(min_size, max_size + 1):
        if final > played:
            break
        for m in range(1, max_size):
            size, stages = final, 1
            while True:
                candidate = FieldProposal(size, m, stages)
                if best is None or (candidate.field, -candidate.stages) > (best.field, -best.stages):
                    best = candidate
                if size % m:
                    break
                bigger = size // m * max_size
                if bigger > played or bigger <= size:
                    break
                size, stages = bigger, stages + 1
    if played <= max_size or best is None:
        best = FieldProposal(min(played, max_size), 1, 1)
    plan_stages(best.field, min_size, max_size, [best.advance_per_table])  # it must plan; a bug otherwise
    return best


@dataclass
class StageSeating:
    tables: list[list]
    byes: list


def short_stage(stage: StagePlan, players: int, min_size: int, game_format: str = STANDARD) -> StagePlan:
    """``stage`` for ``players`` fewer than planned (places the stage before left empty by the organizer's
    decision, a bye): the same tables and byes, the missing seats spread as the snake seats them (each table
    the planned size or one less). Refused when a format needs full tables or a table would be too small."""
    rest, count = players - stage.byes, stage.tables
    if game_format in FOUR_ONLY or game_format in GROUPS_OF_8:
        raise BracketError(f"{GAME_FORMATS[game_format]} needs full tables: stage {stage.number} cannot play with "
                           f"{players} of its {stage.field} players. Send a no-show on instead of the bye.")
    sizes = tuple(rest // count + (1 if i < rest % count else 0) for i in range(count)) if rest > 0 else (0,)
    if min(sizes) < max(2, min_size):
        raise BracketError(f"Stage {stage.number} with {players} of its {stage.field} players would seat a table of "
                           f"{min(sizes)}. Send a no-show on instead of the bye.")
    return replace(stage, field=players, table_sizes=sizes)


def seat_stage(seeds: Sequence[PlayerId], stage: StagePlan, game_format: str = STANDARD) -> StageSeating:
    """Seat ``seeds`` (best first) for ``stage``: byes to the top seeds, the rest in snake order.

    Seeds 1..t (after the byes) sit at tables 1..t, then t..1, and so on, so the strongest meet as late
    as possible. With partners the table's best and worst play against the two in between (seats 0+2
    and 1+3 are partners).
    """
    seeds = list(seeds)
    if len(set(seeds)) != len(seeds):
        raise BracketError("A player appears twice in the seeded field.")
    if len(seeds) != stage.field:
        raise BracketError(f"Stage {stage.number} needs {stage.field} players; {len(seeds)} were given.")
    if game_format in FOUR_ONLY and any(size != 4 for size in stage.table_sizes):
        raise BracketError(f"{GAME_FORMATS[game_format]} needs tables of exactly 4; stage {stage.number} "
                           f"has tables of {sorted(set(stage.table_sizes))}.")
    if game_format in GROUPS_OF_8 and any(size != 8 for size in stage.table_sizes):
        raise BracketError(f"The partner rotation for eight needs groups of exactly 8; stage {stage.number} "
                           f"has groups of {sorted(set(stage.table_sizes))}.")
    byes, rest = seeds[:stage.byes], seeds[stage.byes:]
    count = stage.tables
    tables: list[list] = [[] for _ in range(count)]
    for index, pid in enumerate(rest):
        lap, position = divmod(index, count)
        tables[position if lap % 2 == 0 else count - 1 - position].append(pid)
    if game_format in FOUR_ONLY:
        tables = [[t[0], t[1], t[3], t[2]] for t in tables]
    if sorted(len(t) for t in tables) != sorted(stage.table_sizes):
        raise BracketFatalError(f"snake seating gave sizes {[len(t) for t in tables]}, planned {stage.table_sizes}")
    return StageSeating(tables, byes)
