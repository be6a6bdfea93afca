"""Planning the round after a round as a bracket of tables: the organizer's options, the preview (who is
in, who is out and why, the stages, stage one's tables) and the confirmed round saved from it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction

from tournament import signals
from tournament.generators.brackets import (
    FOUR_ONLY,
    GAME_FORMATS,
    ROTATIONS,
    STANDARD,
    BracketError,
    BracketPlan,
    StageSeating,
    plan_stages,
    propose_field,
    seat_stage,
    stage_bounds,
)
from tournament.generators.cuts import Tie, cut, draw_order, new_draw_seed
from tournament.models import BracketEntry, BracketStage, Event, Game, Player, Round, Seat, TiebreakDraw
from tournament.rules import unplayable_sizes
from tournament.services import added_back, audit, participation
from tournament.services.bracket_stages import build_stage
from tournament.services.bracket_view import ACTIVE
from tournament.services.format_rules import rules_for_format
from tournament.services.stage_results import DRAW, HAND
from tournament.standings import StandingRow, compute_standings

TOP = "top"
TABLES = "tables"
FIELD_METHODS = {TOP: "The top of the round's standings", TABLES: "The top of every table, then the best by points"}


@dataclass
class NextRoundOptions:
    field: int
    method: str = TOP
    per_table: int = 1
    advance: list[int] = field(default_factory=list)
    formats: list[str] = field(default_factory=lambda: [STANDARD])
    tie_method: str = DRAW
    draw_seed: int | None = None
    tie_orders: dict[str, list[int]] = field(default_factory=dict)  # players_key → order (tiebreak hands)
    added_back: dict[int, str] = field(default_factory=dict)  # no-show's player id → the organizer's reason

    def format_of(self, stage_number: int) -> str:
        formats = self.formats or [STANDARD]
        return formats[min(stage_number - 1, len(formats) - 1)]


@dataclass
class FieldLine:
    """One player of the previous round in the preview: in or out, and why."""

    row: StandingRow
    table_number: int | None
    played: bool
    seed: int | None = None
    reason: str = ""
    tiebreak: str = ""
    added_back: str = ""  # the organizer's reason, for a no-show added back

    @property
    def is_in(self) -> bool:
        return self.seed is not None


@dataclass
class NextRoundPlan:
    event: Event
    previous: Round
    options: NextRoundOptions
    played: int
    lines: list[FieldLine]
    field_ids: list[int]
    bracket: BracketPlan | None
    stage_one: StageSeating | None
    ties: list[tuple[Tie, int | None]]  # (tie, table number for a per-table cut)
    problems: list[str]
    replacing: Round | None = None
    no_shows: list[FieldLine] = field(default_factory=list)  # seated in the previous round, did not take part

    @property
    def confirmable(self) -> bool:
        return not self.problems and self.bracket is not None

    @property
    def stage_lines(self) -> list[str]:
        return self.bracket.describe(self.options.format_of) if self.bracket else []


def previous_round(event: Event) -> tuple[Round, Round | None]:
    """The round the next one is planned from, and an unstarted bracket round that a new plan replaces."""
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    if not rounds:
        raise BracketError("There is no round yet: play a first round before planning the next one.")
    last = rounds[-1]
    if last.kind == Round.Kind.BRACKET and not _round_started(last) and len(rounds) > 1:
        return rounds[-2], last
    if last.status != Round.Status.FINISHED:
        raise BracketError(f"Round {last.number} is {last.get_status_display().lower()}: plan the next round "
                           f"once every game of it has ended.")
    return last, None


def _round_started(round_: Round) -> bool:
    return Game.objects.filter(table__round=round_).exclude(status=Game.Status.PENDING).exists()


def default_options(event: Event) -> NextRoundOptions:
    """The proposal: a field that fills every table up to one final table."""
    previous, _ = previous_round(event)
    played = _eligible_count(event, previous)
    proposal = propose_field(played, event.min_table_size, event.max_table_size)
    return NextRoundOptions(field=proposal.field, advance=[proposal.advance_per_table])


def _eligible_count(event: Event, previous: Round) -> int:
    return Player.objects.filter(participation.took_part(round_=previous), event=event, status__in=ACTIVE).count()


def plan_next_round(event: Event, options: NextRoundOptions) -> NextRoundPlan:
    """Preview the next round: who is in, who is out and why, the stages and stage one's tables."""
    previous, replacing = previous_round(event)
    if options.method not in FIELD_METHODS:
        raise BracketError(f"Unknown way to choose the field {options.method!r}.")
    if options.tie_method not in (DRAW, HAND):
        raise BracketError(f"Unknown tiebreak {options.tie_method!r}.")
    for game_format in options.formats:
        if game_format not in GAME_FORMATS:
            raise BracketError(f"Unknown game format {game_format!r}.")
    if options.draw_seed is None:
        options.draw_seed = new_draw_seed()
    standings = compute_standings(event, round=previous)
    played_count = sum(row.participation == participation.PLAYED for row in standings)
    no_show_ids = {row.player_id for row in standings if row.participation == participation.NO_SHOW}
    problems = added_back.added_back_problems(standings, options.added_back, previous.number)
    rows = added_back.with_added_back(standings, options.added_back)
    played = {row.player_id for row in rows if row.participation == participation.PLAYED}
    table_of = dict(Seat.objects.filter(table__round=previous, player__isnull=False)
                    .values_list("player_id", "table__number"))
    lines = {row.player_id: FieldLine(row, table_of.get(row.player_id), row.player_id in played) for row in rows}
    eligible = []
    for row in rows:
        line = lines[row.player_id]
        if row.status not in ACTIVE:
            line.reason = f"{row.status.replace('_', ' ')}"
        elif not line.played:
            line.reason = f"no-show in round {previous.number}: made no move of their own"
        else:
            eligible.append(row)
        if row.player_id in no_show_ids and row.player_id in options.added_back:
            line.added_back = options.added_back[row.player_id].strip()
    no_shows = sorted((lines[pid] for pid in no_show_ids),
                      key=lambda line: (line.row.display_name.casefold(), line.row.player_id))
    ties: list[tuple[Tie, int | None]] = []

    def resolver(table_number):
        def resolve(tie: Tie):
            names = ", ".join(lines[p].row.display_name for p in sorted(tie.players))
            if options.tie_method == DRAW:
                order = draw_order(tie.players, options.draw_seed)
                text = f"tied with {names} on every tiebreak; random draw (seed {options.draw_seed})"
            else:
                order = options.tie_orders.get(tie.key)
                if order is not None and sorted(order) != sorted(tie.players):
                    order = None
                text = f"tied with {names} on every tiebreak; tiebreak hand"
                if order is None:
                    problems.append(f"{names} are tied for {tie.places} place{'s' * (tie.places != 1)} at the cut: "
                                    f"play a tiebreak hand and enter its order.")
            for pid in tie.players:
                lines[pid].tiebreak = text
            ties.append((tie, table_number))
            return order
        return resolve

    if options.field > len(eligible):
        problems.append(f"A field of {options.field} was asked, but only {len(eligible)} played in round "
                        f"{previous.number} and are still in the event.")
    chosen: list[int] = []
    if options.method == TABLES:
        by_table: dict[int | None, list[StandingRow]] = defaultdict(list)
        for row in eligible:
            by_table[lines[row.player_id].table_number].append(row)
        for number in sorted(by_table, key=lambda n: n or 0):
            result = cut(standing_groups(by_table[number]), options.per_table, resolver(number))
            for place, pid in enumerate(result.chosen, start=1):
                lines[pid].reason = f"{_ordinal(place)} at table {number}"
            chosen.extend(result.chosen)
        if len(chosen) > options.field:
            problems.append(f"The top {options.per_table} of every table make {len(chosen)} players, more than "
                            f"the field of {options.field}: raise the field or lower the number per table.")
    remaining = [row for row in eligible if row.player_id not in set(chosen)]
    fill = max(0, options.field - len(chosen))
    result = cut(standing_groups(remaining), fill, resolver(None))
    for pid in result.chosen:
        lines[pid].reason = (f"best remaining by points (rank {lines[pid].row.rank})" if options.method == TABLES
                             else f"rank {lines[pid].row.rank} (top {options.field})")
    for pid in result.rest:
        if not lines[pid].reason:
            lines[pid].reason = f"rank {lines[pid].row.rank}: below the cut"
    chosen_set = set(chosen) | set(result.chosen)
    # Seeds follow the previous round's standings (a tie resolved at a cut keeps its resolved order).
    tie_rank = {pid: index for tie, _ in ties if tie.order for index, pid in enumerate(tie.order)}
    field_ids = sorted(chosen_set, key=lambda pid: (lines[pid].row.tiebreak_key(), tie_rank.get(pid, 0),
                                                    lines[pid].row.display_name.casefold(), pid))
    for seed, pid in enumerate(field_ids, start=1):
        lines[pid].seed = seed
    bracket = stage_one = None
    if not problems:
        try:
            bracket = plan_stages(len(field_ids), event.min_table_size, event.max_table_size, options.advance,
                                  bounds_for=lambda n: stage_bounds(options.format_of(n), event.min_table_size,
                                                                    event.max_table_size))
            for stage in bracket.stages:
                game_format = options.format_of(stage.number)
                if game_format in FOUR_ONLY and any(size != 4 for size in stage.table_sizes):
                    raise BracketError(f"Stage {stage.number}: {GAME_FORMATS[game_format].split(':')[0]} needs "
                                       f"tables of exactly 4, and this stage has tables of "
                                       f"{sorted(set(stage.table_sizes))}.")
                unplayable = unplayable_sizes(rules_for_format(event, game_format),
                                              (4,) if game_format in ROTATIONS else stage.table_sizes)
                if unplayable:
                    raise BracketError(f"Stage {stage.number}: {unplayable}")
            stage_one = seat_stage(field_ids, bracket.stages[0], options.format_of(1))
        except BracketError as error:
            problems.append(str(error))
            bracket = None
    ordered_lines = sorted(lines.values(), key=lambda line: (not line.is_in, line.seed or 0, line.row.rank,
                                                             line.row.display_name.casefold()))
    return NextRoundPlan(event, previous, options, played_count, ordered_lines, field_ids, bracket, stage_one,
                         ties, problems, replacing, no_shows)


def standing_groups(rows: list[StandingRow]) -> list[list[int]]:
    """Player ids in groups of rows equal on every tiebreak, best first (what ``cut`` takes)."""
    groups: list[list[int]] = []
    previous_key = None
    for row in rows:
        if groups and row.tiebreak_key() == previous_key:
            groups[-1].append(row.player_id)
        else:
            groups.append([row.player_id])
        previous_key = row.tiebreak_key()
    return groups


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def create_bracket_round(event: Event, options: NextRoundOptions, expected_field: list[int], actor) -> Round:
    """Save the previewed plan as the next round (replacing an unstarted bracket round): its stages, the
    seeded field, the draws at the cut, and stage one's tables, seats and games."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        plan = plan_next_round(event, options)
        if plan.problems:
            raise BracketError(" ".join(plan.problems))
        if plan.field_ids != list(expected_field):
            raise BracketError("The field changed since the preview (a result or a player changed): "
                               "look at the new preview and confirm again.")
        replaced = None
        if plan.replacing is not None:
            replaced = plan.replacing.pk
            plan.replacing.delete()
        round_ = Round.objects.create(event=event, number=plan.previous.number + 1, kind=Round.Kind.BRACKET,
                                      seed=options.draw_seed)
        stages = BracketStage.objects.bulk_create([
            BracketStage(round=round_, number=s.number, planned_field=s.field, planned_tables=s.tables,
                         byes=s.byes, advance_per_table=s.advance_per_table, is_final=s.is_final,
                         game_format=options.format_of(s.number), tie_method=options.tie_method)
            for s in plan.bracket.stages
        ])
        BracketEntry.objects.bulk_create([
            BracketEntry(round=round_, player_id=line.row.player_id, seed=line.seed, reason=line.reason[:200])
            for line in plan.lines if line.is_in
        ])
        TiebreakDraw.objects.bulk_create([
            TiebreakDraw(round=round_, stage=0, table_number=table_number, players_key=tie.digest,
                         method=options.tie_method, seed=options.draw_seed if options.tie_method == DRAW else None,
                         order=tie.order, places=tie.places, actor=actor if getattr(actor, "pk", None) else None)
            for tie, table_number in plan.ties if tie.order is not None
        ])
        build_stage(round_, stages[0], plan.bracket.stages[0], plan.stage_one)
        signals.field_changed.send(sender=Event, round_=round_, stage=1)
        audit.record(event, actor, "bracket.create", f"Round {round_.number}: bracket of {len(plan.field_ids)}",
                     changes={"options": {**options.__dict__}, "field": plan.field_ids,
                              "stages": plan.bracket.describe(), "replaced_round": replaced,
                              "draws": [{"players": t.players, "order": t.order} for t, _ in plan.ties]})
        for line in plan.no_shows:  # who added a no-show back, and why
            if line.added_back:
                audit.record(event, actor, "next_round.add_back",
                             f"Round {round_.number}: no-show {line.row.display_name} added back",
                             reason=line.added_back, changes={"player": line.row.player_id, "seed": line.seed,
                                                             "no_show_in_round": plan.previous.number})
    return round_
