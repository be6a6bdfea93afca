"""Partner rotations played live: one tournament game per block of four hands, made when the block before
it ends.

A rotation table (a bracket ``Table``) seats its whole group: 4 players (12 hands) or 8 (28 hands). The
schedule (``tournament.generators.partners.partner_rotation`` over the table's seat numbers) says, block by block,
who sits where: each block is one ``Game`` per table of four (one with four players, two with eight),
whose ``seat_order`` lists the table's seat numbers in game seat order (0+2 and 1+3 partners). Game
numbers run block by block: block ``b``'s ``k``-th table of four is game ``(b - 1) * tables + k``.

A block's game has no target (``ROTATION_TARGET`` is out of reach): it ends after its four hands
(``end_block_if_played``, called for a hand played live, ``tournament.services.live_results``, and for one
an organizer records). When every game
of a block has ended, ``continue_rotations`` (run by ``advance_bracket``) makes the next block's games,
running, with their live tables. Points are kept per player (per seat of the table), so the bracket ranks
the group by each player's total over all blocks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.utils import timezone

from games.models import LiveGame
from tournament.generators.brackets import ROTATIONS
from tournament.generators.partners import (
    HANDS_PER_PARTNER,
    ROTATION_TARGET,
    PartnerSchedule,
    partner_rotation,
)
from tournament.models import BracketStage, Game, Hand, HandScore, Round, Seat, Table
from tournament.services.rounds import open_live_tables


def is_rotation(game_format: str) -> bool:
    return game_format in ROTATIONS


def schedule_for(seat_count: int) -> PartnerSchedule:
    """The rotation over the table's seat numbers 0..n-1 (4 or 8 of them)."""
    return partner_rotation(range(seat_count))


def tables_per_block(seat_count: int) -> int:
    return seat_count // 4


def block_of(game: Game, seat_count: int) -> int:
    return (game.number - 1) // tables_per_block(seat_count) + 1


def block_games(table: Table, seat_count: int, block: int, *, running: bool) -> list[Game]:
    """The unsaved games of ``block`` (from 1) at ``table``."""
    schedule = schedule_for(seat_count)
    seats = schedule.blocks[block - 1].tables
    now = timezone.now() if running else None
    return [Game(table=table, number=(block - 1) * len(seats) + index + 1, target_score=ROTATION_TARGET,
                 seat_order=list(order), status=Game.Status.RUNNING if running else Game.Status.PENDING,
                 started_at=now)
            for index, order in enumerate(seats)]


def end_block_if_played(game: Game) -> bool:
    """Finish a rotation game once its block's hands are played (inside the caller's transaction, with
    ``game`` locked). The game's winner is the seat with the most points in the block, when only one has."""
    if not game.seat_order or game.status == Game.Status.FINISHED:
        return False
    if Hand.objects.filter(game=game).count() < HANDS_PER_PARTNER:
        return False
    totals = dict(HandScore.objects.filter(hand__game=game).values_list("seat_id").annotate(total=Sum("points_won"))
                  .order_by())
    best = max(totals.values(), default=0)
    leaders = [seat_id for seat_id, total in totals.items() if total == best]
    game.status = Game.Status.FINISHED
    game.winner_id = leaders[0] if len(leaders) == 1 else None
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "winner", "finished_at"])
    return True


def continue_rotations(round_: Round) -> list[str]:
    """Start the next block at every rotation table whose current block has ended (inside the caller's
    transaction); returns what was started, e.g. "stage 1, table 2: block 3"."""
    formats = dict(BracketStage.objects.filter(round=round_, started_at__isnull=False)
                   .values_list("number", "game_format"))
    stages = [number for number, game_format in formats.items() if is_rotation(game_format)]
    if not stages:
        return []
    tables = list(Table.objects.filter(round=round_, stage__in=stages).annotate(seat_count=Count("seats"))
                  .order_by("stage", "number"))
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__in=tables).order_by("number"):
        games[game.table_id].append(game)
    new: list[Game] = []
    started = []
    for table in tables:
        played = games[table.pk]
        per_block = tables_per_block(table.seat_count)
        blocks = len(schedule_for(table.seat_count).blocks)
        if not played or len(played) >= blocks * per_block:
            continue
        if any(g.status != Game.Status.FINISHED for g in played):
            continue
        block = len(played) // per_block + 1
        new.extend(block_games(table, table.seat_count, block, running=True))
        started.append(f"stage {table.stage}, table {table.number}: block {block}")
    if new:
        Game.objects.bulk_create(new)
        open_live_tables(round_)
    return started


def table_finished(games: list[Game], seat_count: int) -> bool:
    """A rotation table is finished when every block's games are."""
    expected = len(schedule_for(seat_count).blocks) * tables_per_block(seat_count)
    return len(games) == expected and all(g.status == Game.Status.FINISHED for g in games)


@dataclass
class BlockLine:
    """One block of the schedule as pages show it: the hands, who partners whom at each table of four."""

    number: int
    first_hand: int
    last_hand: int
    tables: list[tuple[str, str, str, str]]  # names in game seat order (0+2 against 1+3)
    status: str  # "played", "playing" or "to come"

    @property
    def pairings(self) -> list[str]:
        """"A & C v B & D" per table of four, prefixed "Table A: "/"Table B: " when there are two."""
        named = len(self.tables) > 1
        return [f"{'Table ' + 'AB'[i] + ': ' if named else ''}{a} & {c} v {b} & {d}"
                for i, (a, b, c, d) in enumerate(self.tables)]


def schedule_lines(seats: list[Seat], games: list[Game]) -> list[BlockLine]:
    """The schedule of a rotation table with its players' names and how far it has been played."""
    names = {s.number: s.label for s in seats}
    schedule = schedule_for(len(seats))
    per_block = tables_per_block(len(seats))
    by_block: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        by_block[(game.number - 1) // per_block + 1].append(game)
    lines = []
    for block in schedule.blocks:
        played = by_block.get(block.number, [])
        if played and all(g.status == Game.Status.FINISHED for g in played) and len(played) == per_block:
            status = "played"
        elif played and any(g.status != Game.Status.PENDING for g in played):
            status = "playing"
        else:
            status = "to come"
        lines.append(BlockLine(block.number, block.first_hand, block.last_hand,
                               [tuple(names.get(n, f"seat {n + 1}") for n in seats_) for seats_ in block.tables],
                               status))
    return lines


def table_schedule(table: Table) -> list[BlockLine] | None:
    """The schedule of ``table`` when it plays a partner rotation (None otherwise), for its public page."""
    if table.round.kind != Round.Kind.BRACKET:
        return None
    game_format = BracketStage.objects.filter(round_id=table.round_id, number=table.stage).values_list(
        "game_format", flat=True).first()
    seats = list(table.seats.select_related("player").order_by("number"))
    if not is_rotation(game_format or "") or len(seats) not in (4, 8):
        return None
    return schedule_lines(seats, list(table.games.order_by("number")))


@dataclass(frozen=True)
class NextTable:
    """A table of four of the next block: its game, its live table (None until opened), what to call it."""

    game_id: int
    live_game_id: int | None
    label: str  # "table 3", or "table 3 (A)" when the block plays at two tables of four
    partner: str  # the asking player's partner there; "" for a spectator


@dataclass(frozen=True)
class NextBlock:
    """Where the players of a finished block go on. ``status``: "ready" (``tables`` says where), "waiting"
    (the next block starts when every table of this one has ended), "over" (that was the last block), or
    "none" (not a rotation block, or not finished). ``mine``: the asker plays in the rotation, and
    ``tables`` holds only their own table; otherwise (a spectator) every table of the next block."""

    status: str
    block: int | None = None  # the next block's number
    blocks: int | None = None
    mine: bool = False
    tables: tuple[NextTable, ...] = ()

    @property
    def message(self) -> str:
        if self.status == "ready":
            return f"Block {self.block} of {self.blocks} is being played."
        if self.status == "waiting":
            return (f"Block {self.block} of {self.blocks} starts when every table of four of this block has "
                    f"finished; this page will show where to go.")
        if self.status == "over":
            return "That was the rotation's last block."
        return ""


def next_block_for(game: Game, user) -> NextBlock:
    """The next block after ``game`` (a finished rotation block) for ``user``: a player of the rotation
    gets their own table of four of the next block (with eight players they may change tables, and every
    block changes partners); anyone else, every table of the next block, to watch."""
    if not game.seat_order or game.status != Game.Status.FINISHED:
        return NextBlock("none")
    seats = {s.number: s for s in Seat.objects.filter(table_id=game.table_id).select_related("player")}
    per_block = tables_per_block(len(seats))
    blocks = len(schedule_for(len(seats)).blocks)
    block = block_of(game, len(seats))
    if block >= blocks:
        return NextBlock("over", None, blocks)
    mine = next((n for n, s in seats.items()
                 if user.is_authenticated and s.player_id and s.player.user_id == user.pk), None)
    first = block * per_block + 1
    games = list(Game.objects.filter(table_id=game.table_id, number__in=range(first, first + per_block))
                 .order_by("number"))
    if mine is not None:
        games = [g for g in games if mine in g.seat_order]
    if not games:
        return NextBlock("waiting", block + 1, blocks, mine is not None)
    lives = dict(LiveGame.objects.filter(game__in=games).values_list("game_id", "pk"))
    table_number = game.table.number
    tables = []
    for g in games:
        index = (g.number - 1) % per_block
        label = f"table {table_number}" + (f" ({'AB'[index]})" if per_block > 1 else "")
        partner = ""
        if mine is not None:
            order = list(g.seat_order)
            partner = seats[order[(order.index(mine) + 2) % 4]].label
        tables.append(NextTable(g.pk, lives.get(g.pk), label, partner))
    return NextBlock("ready", block + 1, blocks, mine is not None, tuple(tables))
