"""A bracket round read in a fixed number of queries: stages, tables, seats, totals, byes, draws.

The public bracket page, the admin's bracket page and ``advance_bracket`` all read a bracket through
``load_bracket``; who goes on from each table is ``services.stage_results``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournament.generators.brackets import CHALLENGE
from tournament.generators.cuts import TableResult, Tie
from tournament.models import (
    BracketEntry,
    BracketStage,
    Game,
    HandScore,
    OpenPlaceDecision,
    Player,
    Round,
    Seat,
    Table,
    TiebreakDraw,
)
from tournament.services import participation, rotations

ACTIVE = (Player.Status.REGISTERED, Player.Status.CHECKED_IN)  # players still in the event


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
    took_part: bool = False  # the player made moves of their own here, or the organizer says they played


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
    waiting_for_decision: bool = False
    open_places: int = 0
    places_left_empty: int = 0  # of them, left empty by the organizer (a bye): the next stage is that short  # places that go on but fewer took part: the organizer decides (``open_places``)
    decisions: list[OpenPlaceDecision] = field(default_factory=list)
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
    decisions: dict[tuple[int, int], list[OpenPlaceDecision]] = field(default_factory=dict)


def load_bracket(round_: Round) -> BracketState:
    """Everything the bracket page and ``advance_bracket`` need, in nine queries whatever its size (ten
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
    decisions: dict[tuple[int, int], list[OpenPlaceDecision]] = defaultdict(list)
    for decision in OpenPlaceDecision.objects.filter(round=round_):
        decisions[(decision.stage, decision.table_number)].append(decision)
    took_part = participation.seats_who_took_part(round_)
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
            state = SeatState(seat, seeds.get(seat.player_id), active=player is not None and player.status in ACTIVE,
                              took_part=seat.pk in took_part)
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
                                            finished=finished, schedule=schedule,
                                            decisions=decisions.get((table.stage, table.number), []))
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
    return BracketState(round_, stage_states, seeds, entries, draws, players, decisions=dict(decisions))


def table_results(table: TableState) -> list[TableResult]:
    """Ranking input for a finished table; players who withdrew since cannot go on (the next one does).
    Each result says whether the player took part at this table: ``rank_table`` puts them above its
    no-shows whatever the points."""
    return [TableResult(s.seat.player_id, points_won=s.total, games_won=s.games_won, hands_won=s.hands_won,
                        points_left=s.points_left, eliminated_at=s.eliminated_at, seed=s.seed or 10**6,
                        took_part=s.took_part)
            for s in table.seats if s.seat.player_id and s.active]
