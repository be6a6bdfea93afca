"""Rounds of tables: planning the first round's seating, creating it, starting it, its overview.

Planning is pure (``tournament.generators.seating``) and saves nothing; ``create_first_round`` re-checks the plan
against the players as they are at confirm time, so a stale or tampered preview cannot seat a withdrawn
player or leave someone out. A planned round can be replaced (a new seed, moved players) until it starts.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Max, Sum
from django.utils import timezone

from games import engine
from tournament import signals
from tournament.generators.seating import BOT, SeatingError, build_tables
from tournament.models import Event, Game, Hand, HandScore, Player, Round, Seat, Table
from tournament.rules import RulesRefused, rules_for_event, target_score_for, unplayable_sizes
from tournament.services import audit
from tournament.services.live_tables import start_live_games

CHECKED_IN = "checked_in"
REGISTERED = "registered"
SOURCES = {CHECKED_IN: "Checked-in players", REGISTERED: "All registered players (checked in or not)"}


class RoundError(ValueError):
    """An organizer action on a round or game that cannot be done now; the message says why."""


@dataclass
class SeatingPlan:
    """Tables of player ids (``None`` = a bot seat) with how they were made."""

    seed: int
    source: str
    fill_with_bots: bool
    use_seeding: bool
    tables: list[list[int | None]]
    moved: list[int] = field(default_factory=list)  # players the organizer moved after the shuffle

    @property
    def player_ids(self) -> list[int]:
        return [pid for table in self.tables for pid in table if pid is not BOT]


def default_source(event: Event) -> str:
    """Checked-in players when anyone has checked in, else everyone registered."""
    checked_in = Player.objects.filter(event=event, status=Player.Status.CHECKED_IN).exists()
    return CHECKED_IN if checked_in else REGISTERED


def _players_by_status(event: Event, source: str):
    if source not in SOURCES:
        raise RoundError(f"Unknown choice of players {source!r}.")
    statuses = [Player.Status.CHECKED_IN] if source == CHECKED_IN else [
        Player.Status.REGISTERED, Player.Status.CHECKED_IN]
    return Player.objects.filter(event=event, status__in=statuses).order_by("pk")


def seating_candidates(event: Event, source: str) -> list[Player]:
    """The players ``source`` seats, without unconfirmed claims of a list place (see ``unconfirmed_claims``)."""
    return list(_players_by_status(event, source).exclude(claim=Player.Claim.PENDING))


def unconfirmed_claims(event: Event, source: str) -> list[Player]:
    """Players ``source`` would seat but for their claim of a roll number an organizer has not confirmed."""
    return list(_players_by_status(event, source).filter(claim=Player.Claim.PENDING))


def plan_first_round(
    event: Event,
    seed: int | None = None,
    source: str | None = None,
    fill_with_bots: bool = False,
    use_seeding: bool = False,
) -> SeatingPlan:
    """Shuffle (or spread by seeding) the candidates into tables; raises ``SeatingError`` to show."""
    source = source or default_source(event)
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    players = seating_candidates(event, source)
    seeding = {p.pk: p.seeding for p in players} if use_seeding else None
    tables = build_tables([p.pk for p in players], event.min_table_size, event.max_table_size, seed,
                          seeding=seeding, fill_with_bots=fill_with_bots)
    return SeatingPlan(seed, source, fill_with_bots, use_seeding, tables)


def plan_problems(event: Event, plan: SeatingPlan) -> list[str]:
    """What stops the plan from being confirmed (empty when it can be)."""
    problems = []
    for number, table in enumerate(plan.tables, start=1):
        if not event.min_table_size <= len(table) <= event.max_table_size:
            problems.append(f"Table {number} has {len(table)} seats; tables must have "
                            f"{event.min_table_size} to {event.max_table_size}.")
        if all(pid is BOT for pid in table):
            problems.append(f"Table {number} has only bots.")
    try:
        unplayable = unplayable_sizes(rules_for_event(event), [len(table) for table in plan.tables])
    except RulesRefused as refused:
        unplayable = str(refused)
    if unplayable:
        problems.append(f"{unplayable} Change the event's table sizes, then preview again.")
    return problems


def first_round(event: Event) -> Round | None:
    return Round.objects.filter(event=event, number=1).first()


def create_first_round(event: Event, plan: SeatingPlan, actor) -> Round:
    """Save the plan as round 1 (replacing a planned, unstarted round 1), with tables, seats and games."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        existing = Round.objects.select_for_update().filter(event=event, number=1).first()
        if existing and existing.status != Round.Status.PLANNED:
            raise RoundError("Round 1 has already started; its tables can no longer be rebuilt.")
        candidates = {p.pk for p in seating_candidates(event, plan.source)}
        seated = plan.player_ids
        if len(seated) != len(set(seated)) or set(seated) != candidates:
            raise RoundError("The players to seat changed since the preview; build the preview again.")
        problems = plan_problems(event, plan)
        if problems:
            raise RoundError(" ".join(problems))
        target = target_score_for(event)
        replaced = existing.seed if existing else None
        if existing:
            existing.delete()
        round_ = Round.objects.create(event=event, number=1, kind=Round.Kind.TABLES, seed=plan.seed)
        tables = Table.objects.bulk_create(
            [Table(round=round_, number=n) for n in range(1, len(plan.tables) + 1)]
        )
        Seat.objects.bulk_create([
            Seat(table=table, number=index, player_id=pid,
                 bot_kind=Seat.BotKind.HEURISTIC if pid is BOT else "")
            for table, members in zip(tables, plan.tables, strict=True)
            for index, pid in enumerate(members)
        ])
        Game.objects.bulk_create([Game(table=table, number=1, target_score=target) for table in tables])
        audit.record(
            event, actor, "round.create", f"Round 1: {len(tables)} tables",
            changes={
                "seed": plan.seed, "source": plan.source, "bots": sum(t.count(BOT) for t in plan.tables),
                "seeding": plan.use_seeding, "moved_players": plan.moved, "tables": plan.tables,
                "replaced_round_with_seed": replaced,
            },
        )
    return round_


def start_round(round_: Round, actor) -> Round:
    """Start a planned round: its games start and the event is running."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.status != Round.Status.PLANNED:
            raise RoundError(f"{round_} is {round_.get_status_display().lower()}, not planned.")
        if round_.kind == Round.Kind.TABLES:
            _check_playable(round_)
        now = timezone.now()
        round_.status = Round.Status.RUNNING
        round_.started_at = now
        round_.save(update_fields=["status", "started_at"])
        started = Game.objects.filter(table__round=round_, status=Game.Status.PENDING).update(
            status=Game.Status.RUNNING, started_at=now)
        event = round_.event
        if event.status != Event.Status.RUNNING:
            Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
        audit.record(event, actor, "round.start", f"Round {round_.number} started",
                     changes={"games_started": started, "event_status": [event.status, Event.Status.RUNNING]})
        open_live_tables(round_)
        signals.round_started.send(sender=Event, round_=round_)
    return round_


def _check_playable(round_: Round) -> None:
    """Refuse to start a round of tables its rules cannot be played at (say which, and what to change)."""
    try:
        rules = rules_for_event(round_.event)
    except RulesRefused as refused:
        raise RoundError(f"{round_} cannot start: the event's rules are refused: {refused}") from refused
    sizes = dict(Table.objects.filter(round=round_).annotate(seats_count=Count("seats"))
                 .values_list("number", "seats_count"))
    unplayable = unplayable_sizes(rules, sizes.values())
    if unplayable:
        bad = [number for number, size in sorted(sizes.items()) if unplayable_sizes(rules, [size])]
        listed = ", ".join(map(str, bad[:10])) + (f" and {len(bad) - 10} more" if len(bad) > 10 else "")
        raise RoundError(f"{round_} cannot start: {unplayable} Table{'s' * (len(bad) != 1)} {listed}. "
                         "Change the event's table sizes and build the round's seating again.")


def open_live_tables(round_: Round) -> None:
    """Every running game of the round gets its live table, in the same transaction as the start.

    Whatever the engine refuses (rules, seats) becomes a ``RoundError``: the caller's transaction is
    rolled back and the organizer reads why, never a server error.
    """
    try:
        start_live_games(round_)
    except (engine.RuleError, RulesRefused) as error:
        raise RoundError(f"{round_} cannot start: {error}.") from error


def seat_totals(game_ids) -> dict[int, dict[int, int]]:
    """Cumulative points won per seat for each game: {game id: {seat id: total}}, one query."""
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (HandScore.objects.filter(hand__game_id__in=list(game_ids))
            .values_list("hand__game_id", "seat_id").annotate(total=Sum("points_won")).order_by())
    for game_id, seat_id, total in rows:
        totals[game_id][seat_id] = total or 0
    return totals


@dataclass
class SeatLine:
    seat: Seat
    total: int


@dataclass
class TableLine:
    table: Table
    game: Game | None
    seats: list[SeatLine]
    hands: int
    last_hand_at: object = None


def round_overview(round_: Round) -> list[TableLine]:
    """Every table of the round with its seats, game status and cumulative score per seat.

    Four queries whatever the size of the round (tables, seats with players, games, score sums + hands).
    """
    tables = list(Table.objects.filter(round=round_).order_by("stage", "number"))
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round=round_).select_related("player").order_by("table", "number"):
        seats_by_table[seat.table_id].append(seat)
    games: dict[int, Game] = {}
    for game in Game.objects.filter(table__round=round_).order_by("table", "-number"):
        games.setdefault(game.table_id, game)  # the latest game at each table
    totals: dict[int, int] = defaultdict(int)
    for seat_id, total in (HandScore.objects.filter(hand__game__in=games.values())
                           .values_list("seat_id").annotate(total=Sum("points_won")).order_by()):
        totals[seat_id] = total or 0
    hands = {row["game_id"]: row for row in Hand.objects.filter(game__in=games.values()).values("game_id")
             .annotate(count=Count("pk"), last=Max("ended_at")).order_by()}
    lines = []
    for table in tables:
        game = games.get(table.pk)
        info = hands.get(game.pk, {}) if game else {}
        lines.append(TableLine(table, game, [SeatLine(s, totals[s.pk]) for s in seats_by_table[table.pk]],
                               info.get("count", 0), info.get("last")))
    return lines


__all__ = [
    "SeatingError", "RoundError", "SeatingPlan", "plan_first_round", "plan_problems",
    "create_first_round", "start_round", "round_overview", "seat_totals", "target_score_for",
]
