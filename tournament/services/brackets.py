"""Second rounds as brackets of tables: plan, confirm, regenerate, start stages, advance, replace, tiebreaks.

The shapes come from the pure ``tournament.generators.brackets``; this module loads and saves. Who advanced is never
stored: ``advance_bracket`` derives it from the finished games' hand scores every time it runs, builds a
stage's tables once the stage before is complete, and rebuilds (or removes) tables of stages that have
not started when a correction changes the result. It is idempotent, so it is safe to call after any
change: ``tournament.services.game_end.game_ended`` calls ``on_game_finished(game)`` when a game ends,
and the results service when a correction changes a finished game. A stage that has started follows a
corrected result only while nothing there is played (``bracket_corrections``).

A partner rotation's table plays one game per block of four hands; ``advance_bracket`` also starts a
rotation's next block once the block before has ended (``tournament.services.rotations``).

Ties the documented tiebreaks (``tournament.standings``) cannot break are ordered by a seeded random draw
(the seed is stored in a ``TiebreakDraw``) or by a tiebreak hand whose order the organizer records.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from games import engine
from tournament.generators.brackets import (
    CHALLENGE,
    FOUR_ONLY,
    GAME_FORMATS,
    PARTNERS,
    ROTATIONS,
    STANDARD,
    BracketError,
    BracketPlan,
    StagePlan,
    StageSeating,
    plan_stages,
    propose_field,
    seat_stage,
    sizes_with_byes,
    stage_bounds,
)
from tournament.generators.cuts import (
    TableResult,
    Tie,
    cut,
    draw_order,
    new_draw_seed,
    next_stage_seeds,
    rank_table,
)
from tournament.live import notify_scores_changed as _notify
from tournament.models import (
    BracketEntry,
    BracketStage,
    Event,
    Game,
    HandScore,
    Player,
    Round,
    Seat,
    Table,
    TiebreakDraw,
)
from tournament.rules import rules_for_event, target_score_for, unplayable_sizes
from tournament.services import audit, bracket_corrections, participation, rotations
from tournament.standings import StandingRow, compute_standings

TOP = "top"
TABLES = "tables"
FIELD_METHODS = {TOP: "The top of the round's standings", TABLES: "The top of every table, then the best by points"}
DRAW = BracketStage.TieMethod.DRAW
HAND = BracketStage.TieMethod.HAND
ACTIVE = (Player.Status.REGISTERED, Player.Status.CHECKED_IN)

__all__ = [
    "BracketError", "NextRoundOptions", "NextRoundPlan", "default_options", "plan_next_round",
    "create_bracket_round", "start_stage", "advance_bracket", "on_game_finished", "replace_player",
    "record_tiebreak_hand", "rules_for_format", "load_bracket",
]


# ---- planning the next round -------------------------------------------------------------------------


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


def rules_for_format(event: Event, game_format: str):
    """The engine rule set a table of this format plays (the event's rules with the format's options)."""
    rules = rules_for_event(event)
    overrides = {CHALLENGE: {"scoring": "elimination", "partners": False},
                 PARTNERS: {"partners": True, "scoring": "winner_takes"}}.get(game_format)
    if game_format in ROTATIONS:  # blocks of four hands with partners, no target (see services.rotations)
        overrides = {"partners": True, "scoring": "winner_takes", "target": rotations.ROTATION_TARGET}
    if not overrides:
        return rules
    try:
        return rules.with_overrides(overrides)
    except engine.RuleError as error:
        raise BracketError(f"{GAME_FORMATS[game_format]} cannot be played with this event's rules: {error}") from error


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
    problems = participation.added_back_problems(standings, options.added_back, previous.number)
    rows = participation.with_added_back(standings, options.added_back)
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
            result = cut(_groups(by_table[number]), options.per_table, resolver(number))
            for place, pid in enumerate(result.chosen, start=1):
                lines[pid].reason = f"{_ordinal(place)} at table {number}"
            chosen.extend(result.chosen)
        if len(chosen) > options.field:
            problems.append(f"The top {options.per_table} of every table make {len(chosen)} players, more than "
                            f"the field of {options.field}: raise the field or lower the number per table.")
    remaining = [row for row in eligible if row.player_id not in set(chosen)]
    fill = max(0, options.field - len(chosen))
    result = cut(_groups(remaining), fill, resolver(None))
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


def _groups(rows: list[StandingRow]) -> list[list[int]]:
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
        _build_stage(round_, stages[0], plan.bracket.stages[0], plan.stage_one)
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


def _stage_plan(stage: BracketStage, sizes: tuple[int, ...]) -> StagePlan:
    return StagePlan(stage.number, stage.planned_field, sizes, stage.byes, stage.advance_per_table, stage.is_final)


def _build_stage(round_: Round, stage: BracketStage, plan: StagePlan, seating: StageSeating) -> list[Table]:
    target = target_score_for(round_.event)
    tables = Table.objects.bulk_create([Table(round=round_, stage=stage.number, number=n)
                                        for n in range(1, len(seating.tables) + 1)])
    Seat.objects.bulk_create([Seat(table=table, number=index, player_id=pid)
                              for table, members in zip(tables, seating.tables, strict=True)
                              for index, pid in enumerate(members)])
    if rotations.is_rotation(stage.game_format):  # the rotation's first block; the next when it ends
        Game.objects.bulk_create([game for table, members in zip(tables, seating.tables, strict=True)
                                  for game in rotations.block_games(table, len(members), 1, running=False)])
    else:
        Game.objects.bulk_create([Game(table=table, number=1, target_score=target) for table in tables])
    stage.bye_players = list(seating.byes)
    stage.built_at = timezone.now()
    stage.save(update_fields=["bye_players", "built_at"])
    return tables


def start_stage(round_: Round, number: int, actor) -> int:
    """Start a built stage's games (stage 1 starts the round). Returns how many games started."""
    from tournament.services.rounds import open_live_tables, start_round

    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        stage = BracketStage.objects.filter(round=round_, number=number).first()
        if stage is None or stage.built_at is None:
            raise BracketError(f"Stage {number} has no tables yet: it is built when the stage before it ends.")
        if stage.started_at:
            raise BracketError(f"Stage {number} has already started.")
        if number == 1 and round_.status == Round.Status.PLANNED:
            start_round(round_, actor)
            started = Game.objects.filter(table__round=round_, table__stage=1).count()
        else:
            now = timezone.now()
            started = Game.objects.filter(table__round=round_, table__stage=number,
                                          status=Game.Status.PENDING).update(status=Game.Status.RUNNING,
                                                                             started_at=now)
            Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
            audit.record(round_.event, actor, "bracket.stage_start", f"Round {round_.number}, stage {number}",
                         changes={"games_started": started})
            open_live_tables(round_)
        BracketStage.objects.filter(pk=stage.pk).update(started_at=timezone.now())
    _notify(round_.event)
    return started


# ---- loading a bracket round (a fixed number of queries) -------------------------------------------


@dataclass
class SeatState:
    seat: Seat
    seed: int | None
    total: int = 0
    hands_won: int = 0
    points_left: int = 0
    games_won: int = 0
    eliminated_at: int | None = None
    advanced: bool = False
    active: bool = True


@dataclass
class TableState:
    table: Table
    game: Game | None
    seats: list[SeatState]
    games: list[Game] = field(default_factory=list)
    hands: int = 0
    finished: bool = False
    tie: Tie | None = None
    waiting_for_tiebreak: bool = False
    schedule: list[rotations.BlockLine] | None = None  # a partner rotation's blocks, with how far they are

    @property
    def current_block(self) -> rotations.BlockLine | None:
        return next((b for b in self.schedule or [] if b.status != "played"), None)


@dataclass
class StageState:
    stage: BracketStage
    tables: list[TableState]
    byes: list[Player] = field(default_factory=list)
    waiting: str = ""  # filled by pages: why the stage has no result yet

    @property
    def started(self) -> bool:
        return any(g.status != Game.Status.PENDING for t in self.tables for g in t.games)

    @property
    def finished(self) -> bool:
        return bool(self.tables) and all(t.finished for t in self.tables)

    @property
    def status(self) -> str:
        if not self.tables:
            return "waiting"
        return "finished" if self.finished else ("running" if self.started else "ready")


@dataclass
class BracketState:
    round: Round
    stages: list[StageState]
    seeds: dict[int, int]
    entries: list[BracketEntry]
    draws: dict[tuple, TiebreakDraw]
    players: dict[int, Player]
    champion: Player | None = None


def load_bracket(round_: Round) -> BracketState:
    """Everything the bracket page and ``advance_bracket`` need, in seven queries whatever its size (eight
    when a seat or a bye belongs to a player outside the entries, which the service's data never has).

    The page of a big event rebuilds this every few seconds while scores change, so it makes as few model
    instances as it can: a seat's player is the entry's instance (not a second copy joined in), and the
    hand scores are plain rows folded in one pass."""
    stages = list(BracketStage.objects.filter(round=round_).order_by("number"))
    entries = list(BracketEntry.objects.filter(round=round_).select_related("player").order_by("seed"))
    players = {e.player_id: e.player for e in entries}
    seeds = {e.player_id: e.seed for e in entries}
    tables = list(Table.objects.filter(round=round_).order_by("stage", "number"))
    seats = list(Seat.objects.filter(table__round=round_).order_by("table_id", "number"))
    games_by_table: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__round=round_).order_by("table_id", "number"):
        games_by_table[game.table_id].append(game)
    hand_rows = HandScore.objects.filter(hand__game__table__round=round_).order_by(
        "hand__game_id", "hand__number").values_list(
        "seat_id", "hand__game_id", "hand__number", "hand__winner_id", "points_won", "points_left")
    draws = {(d.stage, d.table_number, d.players_key): d for d in TiebreakDraw.objects.filter(round=round_)}
    missing = ({s.player_id for s in seats if s.player_id} | {pid for s in stages for pid in s.bye_players}) - set(players)
    if missing:  # only when a seat or bye player is not among the entries (not with the service's data)
        players.update(Player.objects.in_bulk(missing))
    cache_player = Seat.player.field.set_cached_value
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        seats_by_table[seat.table_id].append(seat)
        cache_player(seat, players[seat.player_id] if seat.player_id else None)
    states: dict[int, SeatState] = {}
    table_states: dict[int, TableState] = {}
    game_format = {s.number: s.game_format for s in stages}
    challenge_games: set[int] = set()
    for table in tables:
        seat_states = []
        for seat in seats_by_table[table.pk]:
            player = players.get(seat.player_id) if seat.player_id else None
            state = SeatState(seat, seeds.get(seat.player_id), active=player is not None and player.status in ACTIVE)
            states[seat.pk] = state
            seat_states.append(state)
        games = games_by_table[table.pk]
        table_format = game_format.get(table.stage)
        if table_format == CHALLENGE:
            challenge_games.update(g.pk for g in games)
        finished = bool(games) and all(g.status == Game.Status.FINISHED for g in games)
        schedule = None
        if rotations.is_rotation(table_format) and len(seat_states) in (4, 8):
            finished = rotations.table_finished(games, len(seat_states))
            schedule = rotations.schedule_lines([s.seat for s in seat_states], games)
        table_states[table.pk] = TableState(table, games[-1] if games else None, seat_states, games,
                                            finished=finished, schedule=schedule)
    targets = {g.pk: g.target_score for games in games_by_table.values() for g in games}
    running: dict[tuple[int, int], int] = defaultdict(int)
    hands_seen: dict[int, set] = defaultdict(set)
    for seat_id, game_id, hand_number, winner_id, won, left in hand_rows:
        state = states.get(seat_id)
        if state is None:
            continue
        state.total += won
        state.points_left += left
        if winner_id == seat_id:
            state.hands_won += 1
        hands_seen[game_id].add(hand_number)
        if game_id in challenge_games and state.eliminated_at is None:
            running[(game_id, seat_id)] += won
            if running[(game_id, seat_id)] >= targets[game_id]:
                state.eliminated_at = hand_number
    for table_state in table_states.values():
        table_state.hands = sum(len(hands_seen[g.pk]) for g in table_state.games if g.pk in hands_seen)
        if table_state.schedule:  # hands each player has played: the tables of four play side by side
            table_state.hands //= rotations.tables_per_block(len(table_state.seats))
        for g in table_state.games:
            if g.winner_id is not None:
                for s in table_state.seats:
                    s.games_won += g.winner_id == s.seat.pk
    stage_states = []
    by_stage: dict[int, list[TableState]] = defaultdict(list)
    for table in tables:
        by_stage[table.stage].append(table_states[table.pk])
    for stage in stages:
        stage_states.append(StageState(stage, by_stage.get(stage.number, []),
                                       [players[p] for p in stage.bye_players if p in players]))
    return BracketState(round_, stage_states, seeds, entries, draws, players)


def table_results(table: TableState) -> list[TableResult]:
    """Ranking input for a finished table; players who withdrew since cannot go on (the next one does)."""
    return [TableResult(s.seat.player_id, points_won=s.total, games_won=s.games_won, hands_won=s.hands_won,
                        points_left=s.points_left, eliminated_at=s.eliminated_at, seed=s.seed or 10**6)
            for s in table.seats if s.seat.player_id and s.active]


# ---- advancing ----------------------------------------------------------------------------------------


@dataclass
class AdvanceResult:
    built: list[int] = field(default_factory=list)  # stage numbers whose tables were (re)built
    removed: list[int] = field(default_factory=list)  # stages whose unstarted tables were removed
    waiting: list[str] = field(default_factory=list)  # why a stage cannot be built yet, tables still playing
    blocks: list[str] = field(default_factory=list)  # partner rotation blocks started
    champion: int | None = None
    reseated: list[str] = field(default_factory=list)  # started stages following a corrected result
    conflicts: list[str] = field(default_factory=list)  # started stages that cannot follow it (played)


def _resolve_stage_tie(state: BracketState, stage: BracketStage, table: TableState, tie: Tie,
                       created: list[TiebreakDraw] | None) -> list | None:
    key = (stage.number, table.table.number, tie.digest)
    draw = state.draws.get(key)
    if draw is not None:
        return list(draw.order)
    if stage.tie_method == HAND or created is None:  # read-only callers never draw
        return None
    seed = new_draw_seed()
    draw = TiebreakDraw(round=state.round, stage=stage.number, table_number=table.table.number,
                        players_key=tie.digest, method=DRAW, seed=seed, order=draw_order(tie.players, seed),
                        places=tie.places)
    state.draws[key] = draw
    created.append(draw)
    return list(draw.order)


def stage_advancers(state: BracketState, stage_state: StageState,
                    created: list[TiebreakDraw] | None = None) -> list[list[int]] | None:
    """Who goes on from each table of the stage (marks them on the state); None while incomplete.

    New draws are made (and appended to ``created``) only when ``created`` is given: pages read only."""
    stage = stage_state.stage
    places = 1 if stage.is_final else stage.advance_per_table
    advancers: list[list[int]] = []
    complete = True
    for table in stage_state.tables:
        if not table.finished:
            complete = False
            advancers.append([])
            continue
        groups = [[r.player_id for r in g] for g in rank_table(table_results(table), stage.game_format)]
        result = cut(groups, places, lambda tie, t=table: _resolve_stage_tie(state, stage, t, tie, created))
        table.tie = result.tie
        table.waiting_for_tiebreak = not result.complete
        complete &= result.complete
        chosen = set(result.chosen)
        for seat in table.seats:
            seat.advanced = seat.seat.player_id in chosen
        advancers.append(result.chosen)
    return advancers if complete and stage_state.tables else None


def advance_bracket(round_: Round) -> AdvanceResult:
    """Bring the bracket in line with the results: build every stage whose previous stage is complete,
    rebuild or remove stages not yet started whose entrants changed, finish the round at the champion.
    Idempotent: running it twice changes nothing the second time."""
    outcome = AdvanceResult()
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.kind != Round.Kind.BRACKET:
            return outcome
        outcome.blocks = rotations.continue_rotations(round_)
        state = load_bracket(round_)
        created: list[TiebreakDraw] = []
        for index, stage_state in enumerate(state.stages):
            advancers = stage_advancers(state, stage_state, created)
            if advancers is None and stage_state.tables:
                outcome.waiting.append(waiting_for(stage_state))
            if stage_state.stage.is_final:
                if advancers and advancers[0]:
                    outcome.champion = advancers[0][0]
                break
            following = state.stages[index + 1]
            if following.started:
                _follow_started(round_, state, index, advancers, outcome)
                continue
            seeds = None
            if advancers is not None:
                seeds = next_stage_seeds(stage_state.stage.bye_players, advancers, state.seeds)
                if len(seeds) != following.stage.planned_field:
                    outcome.waiting.append(
                        f"Stage {following.stage.number} needs {following.stage.planned_field} players but only "
                        f"{len(seeds)} can go on (withdrawals): the organizer must replan it.")
                    seeds = None
            desired = None
            if seeds is not None:
                sizes = _sizes_for(following.stage, round_.event)
                desired = seat_stage(seeds, _stage_plan(following.stage, sizes), following.stage.game_format)
            current = [[s.seat.player_id for s in t.seats] for t in following.tables]
            if desired is not None and current == desired.tables and following.stage.bye_players == desired.byes:
                continue
            if following.tables or following.stage.built_at:
                _remove_unstarted(round_, state.stages[index + 1:])
                outcome.removed.append(following.stage.number)
            if desired is not None:
                _build_stage(round_, following.stage, _stage_plan(following.stage, tuple(map(len, desired.tables))),
                             desired)
                outcome.built.append(following.stage.number)
                break  # later stages are rebuilt by the next call once this one is played
            break
        if created:
            TiebreakDraw.objects.bulk_create(created)
        if outcome.built or outcome.removed or created or outcome.blocks or outcome.reseated:
            audit.record(round_.event, None, "bracket.advance", f"Round {round_.number}",
                         changes={"built": outcome.built, "removed": outcome.removed, "blocks": outcome.blocks,
                                  "reseated": outcome.reseated,
                                  "draws": [{"stage": d.stage, "table": d.table_number, "seed": d.seed,
                                             "order": d.order} for d in created]})
        _settle_round_status(round_, outcome.champion is not None)
    return outcome


def _follow_started(round_: Round, state: BracketState, index: int, advancers, outcome: AdvanceResult) -> None:
    """A started stage against the results it was seated from (``bracket_corrections``): reseated while
    nothing there is played, reported as a conflict otherwise."""
    found = bracket_corrections.disagreement(state, index, advancers, waiting_for(state.stages[index]))
    if found is None:
        return
    if bracket_corrections.can_reseat(found):
        outcome.reseated.append(bracket_corrections.reseat(round_, found, state.players))
    else:
        outcome.conflicts.append(bracket_corrections.conflict_message(found, state.players))


def started_stage_conflicts(round_: Round) -> list[str]:
    """Started stages whose players disagree with the results they were seated from and cannot follow
    them any more; read only (no draws made, nothing reseated)."""
    if round_.kind != Round.Kind.BRACKET:
        return []
    state = load_bracket(round_)
    conflicts = []
    for index, stage_state in enumerate(state.stages[:-1]):
        advancers = stage_advancers(state, stage_state)
        found = bracket_corrections.disagreement(state, index, advancers, waiting_for(stage_state))
        if found is not None and not bracket_corrections.can_reseat(found):
            conflicts.append(bracket_corrections.conflict_message(found, state.players))
    return conflicts


def waiting_for(stage_state: StageState) -> str:
    """Why a stage has no result yet, in words: the tables still playing, the ties waiting for a hand."""
    number = stage_state.stage.number
    playing = [t.table.number for t in stage_state.tables if not t.finished]
    tied = [t.table.number for t in stage_state.tables if t.waiting_for_tiebreak]
    parts = []
    if playing:
        parts.append(f"table{'s' * (len(playing) != 1)} {', '.join(map(str, playing))} still playing")
    if tied:
        parts.append(f"a tiebreak hand to record at table{'s' * (len(tied) != 1)} {', '.join(map(str, tied))}")
    if not stage_state.started:
        parts = ["not started yet"]
    return f"Stage {number}: {' and '.join(parts) or 'not complete'}."


def _sizes_for(stage: BracketStage, event: Event) -> tuple[int, ...]:
    if stage.is_final:
        return (stage.planned_field,)
    sizes, byes = sizes_with_byes(stage.planned_field,
                                  *stage_bounds(stage.game_format, event.min_table_size, event.max_table_size))
    if byes != stage.byes:
        raise BracketError(f"Stage {stage.number} was planned with {stage.byes} byes; with the event's table "
                           f"sizes now it would need {byes}: plan the round again.")
    return sizes


def _remove_unstarted(round_: Round, stage_states: list[StageState]) -> None:
    numbers = [s.stage.number for s in stage_states if not s.started]
    Table.objects.filter(round=round_, stage__in=numbers).delete()
    BracketStage.objects.filter(round=round_, number__in=numbers).update(bye_players=[], built_at=None)
    for s in stage_states:
        if s.stage.number in numbers:
            s.stage.bye_players, s.stage.built_at, s.tables = [], None, []


def _settle_round_status(round_: Round, decided: bool) -> None:
    status = Round.Status.FINISHED if decided else (
        Round.Status.RUNNING if round_.status != Round.Status.PLANNED else Round.Status.PLANNED)
    if round_.status != status:
        Round.objects.filter(pk=round_.pk).update(status=status)


def on_game_finished(game: Game) -> AdvanceResult | None:
    """Call after a tournament game ends (or after any change to its results): advances its bracket.

    Does nothing for games outside bracket rounds. Safe to call inside the caller's transaction; watchers
    are told once it commits.
    """
    round_ = Round.objects.select_related("event").get(tables=game.table_id)
    if round_.kind != Round.Kind.BRACKET:
        return None
    result = advance_bracket(round_)
    _notify(round_.event)
    return result


# ---- organizer corrections ----------------------------------------------------------------------------


def replace_player(round_: Round, player: Player, actor, reason: str) -> Player | None:
    """Replace a player who withdrew (or was disqualified) in a stage that has not started.

    In stage one the next-ranked player of the previous round not yet in the field takes the seat and
    the seed; in a later stage the next player of the table they came from goes on instead (the bracket
    is advanced again). Returns the replacement (None when a later stage was recomputed).
    """
    reason = (reason or "").strip()
    if not reason:
        raise BracketError("Say why the player is replaced.")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        player = Player.objects.select_for_update().get(pk=player.pk, event=round_.event)
        if player.status in ACTIVE:
            raise BracketError(f"{player} is still in the event: withdraw or disqualify them first.")
        state = load_bracket(round_)
        located = None
        for stage_state in state.stages:
            for table in stage_state.tables:
                for seat in table.seats:
                    if seat.seat.player_id == player.pk:
                        located = (stage_state, table, seat)
            if player.pk in stage_state.stage.bye_players:
                located = (stage_state, None, None)
        if located is None:
            raise BracketError(f"{player} has no place in round {round_.number}'s bracket to give away.")
        stage_state, table, seat = located
        if stage_state.started:
            raise BracketError(f"Stage {stage_state.stage.number} has started; {player} cannot be replaced there.")
        if stage_state.stage.number > 1:
            outcome = advance_bracket(round_)
            audit.record(round_.event, actor, "bracket.replace", f"Round {round_.number}: {player}",
                         reason=reason, changes={"stage": stage_state.stage.number, "rebuilt": outcome.built})
            _notify(round_.event)
            return None
        replacement = _next_ranked(round_, state, actor)
        if table is not None:
            Seat.objects.filter(pk=seat.seat.pk).update(player=replacement)
        else:
            stage = stage_state.stage
            stage.bye_players = [replacement.pk if p == player.pk else p for p in stage.bye_players]
            stage.save(update_fields=["bye_players"])
        entry = BracketEntry.objects.get(round=round_, player=player)
        entry.player, entry.replaced = replacement, player
        entry.reason = f"replaced {player.display_name} ({player.get_status_display().lower()})"[:200]
        entry.save(update_fields=["player", "replaced", "reason"])
        audit.record(round_.event, actor, "bracket.replace", f"Round {round_.number}: {player} → {replacement}",
                     reason=reason, changes={"seed": entry.seed, "withdrawn": player.pk, "replacement": replacement.pk})
    _notify(round_.event)
    return replacement


def _next_ranked(round_: Round, state: BracketState, actor) -> Player:
    previous = Round.objects.filter(event=round_.event, number__lt=round_.number).order_by("-number").first()
    rows = compute_standings(round_.event, round=previous)
    played = {row.player_id for row in rows if row.participation == participation.PLAYED}
    in_field = set(state.seeds) | {e.replaced_id for e in state.entries if e.replaced_id}
    candidates = [r for r in rows if r.player_id in played and r.status in ACTIVE and r.player_id not in in_field]
    if not candidates:
        raise BracketError(f"Nobody else from round {previous.number} can take the place.")
    method = BracketStage.objects.filter(round=round_, number=1).values_list("tie_method", flat=True).first()
    created: list[TiebreakDraw] = []

    def resolve(tie: Tie):
        existing = TiebreakDraw.objects.filter(round=round_, stage=0, table_number=None, players_key=tie.digest).first()
        if existing:
            return list(existing.order)
        if method == HAND:
            return None
        seed = new_draw_seed()
        created.append(TiebreakDraw(round=round_, stage=0, players_key=tie.digest, method=DRAW, seed=seed,
                                    order=draw_order(tie.players, seed), places=tie.places,
                                    actor=actor if getattr(actor, "pk", None) else None))
        return created[-1].order

    result = cut(_groups(candidates), 1, resolve)
    if not result.complete:
        raise BracketError("The next players are tied on every tiebreak: record a tiebreak hand among "
                           f"{', '.join(state.players.get(p, p).__str__() for p in result.tie.players)} first.")
    TiebreakDraw.objects.bulk_create(created)
    return Player.objects.get(pk=result.chosen[0])


def record_tiebreak_hand(round_: Round, stage_number: int, table_number: int | None, order: list[int],
                         actor) -> AdvanceResult:
    """Record the order a tiebreak hand decided between tied players; the bracket then advances."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        state = load_bracket(round_)
        stage_state = next((s for s in state.stages if s.stage.number == stage_number), None)
        table = next((t for t in (stage_state.tables if stage_state else []) if t.table.number == table_number), None)
        if table is None:
            raise BracketError(f"There is no table {table_number} in stage {stage_number}.")
        stage_advancers(state, stage_state)
        tie = table.tie
        if tie is None or not table.waiting_for_tiebreak:
            raise BracketError("That table has no tie waiting for a tiebreak hand.")
        if sorted(order) != sorted(tie.players):
            raise BracketError("Give the order of exactly the tied players.")
        TiebreakDraw.objects.create(round=round_, stage=stage_number, table_number=table_number,
                                    players_key=tie.digest, method=HAND, order=list(order), places=tie.places,
                                    actor=actor if getattr(actor, "pk", None) else None)
        audit.record(round_.event, actor, "bracket.tiebreak_hand",
                     f"Round {round_.number}, stage {stage_number}, table {table_number}",
                     changes={"order": list(order), "places": tie.places})
    result = advance_bracket(round_)
    _notify(round_.event)
    return result
