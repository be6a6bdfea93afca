"""Hand-by-hand scoreboards of tables' games, loaded with a fixed number of queries.

``load_scoreboards(table_ids)`` runs four queries (seats, games, hands, scores) however many tables,
games or hands there are, and returns plain objects the templates and charts read: per hand, each
seat's points won and running total, the dealer and the winner, and whether the game has a replay (it
was played at a live table, whose move log the replay steps through; a game recorded on paper has none).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Prefetch

from games.models import LiveGame
from tournament.charts import Series, cumulative, cumulative_chart_svg
from tournament.models import Game, Hand, HandScore, Seat


@dataclass
class ScoreCell:
    points_won: int
    points_left: int
    total: int


@dataclass
class HandLine:
    number: int
    dealer: str
    winner: str
    cells: list[ScoreCell | None]


@dataclass
class GameBoard:
    game: Game
    seats: list[Seat]
    hands: list[HandLine] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    winner: str = ""

    @property
    def has_replay(self) -> bool:
        """Played at a live table (``load_scoreboards`` marks it): its move log makes the replay."""
        return bool(getattr(self.game, "has_live_table", False))

    @property
    def labelled_hands(self) -> list[tuple[HandLine, list[tuple[str, ScoreCell | None]]]]:
        """Each hand with its cells paired with their seat's label (the score sheet labels every cell on a
        phone)."""
        labels = [seat.label for seat in self.seats]
        return [(hand, list(zip(labels, hand.cells, strict=True))) for hand in self.hands]

    @property
    def labelled_totals(self) -> list[tuple[str, int]]:
        return [(seat.label, total) for seat, total in zip(self.seats, self.totals, strict=True)]

    def series(self, emphasis_player_id: int | None = None) -> list[Series]:
        per_seat: list[list[int]] = [[] for _ in self.seats]
        for hand in self.hands:
            for index, cell in enumerate(hand.cells):
                per_seat[index].append(cell.points_won if cell else 0)
        return [
            Series(
                label=seat.label,
                values=cumulative(values),
                emphasis=emphasis_player_id is not None and seat.player_id == emphasis_player_id,
            )
            for seat, values in zip(self.seats, per_seat, strict=True)
        ]

    def chart(self, emphasis_player_id: int | None = None) -> str:
        title = f"{self.seats[0].table if self.seats else 'Table'} · game {self.game.number}"
        return cumulative_chart_svg(
            self.series(emphasis_player_id),
            title=f"Points won, {title}",
            y_label="Points won (total)",
            chart_id=f"game-{self.game.pk}",
        )


def load_table_seats(table_ids: Iterable[int]) -> dict[int, list[Seat]]:
    """The seats of the given tables in seat order, with their players, keyed by table id (one query)."""
    seats_by_table: dict[int, list[Seat]] = {table_id: [] for table_id in table_ids}
    for seat in Seat.objects.filter(table_id__in=list(seats_by_table)).select_related("player", "table").order_by(
        "number"
    ):
        seats_by_table[seat.table_id].append(seat)
    return seats_by_table


def load_scoreboards(
    table_ids: Iterable[int], seats_by_table: dict[int, list[Seat]] | None = None
) -> dict[int, list[GameBoard]]:
    """Every game of the given tables with its hands, keyed by table id (tables without games map to []).

    Pass ``seats_by_table`` from ``load_table_seats`` when the caller already has them.
    """
    table_ids = list(table_ids)
    if seats_by_table is None:
        seats_by_table = load_table_seats(table_ids)
    live_table = Exists(LiveGame.objects.filter(game_id=OuterRef("pk")))
    games = Game.objects.filter(table_id__in=table_ids).annotate(has_live_table=live_table).order_by(
        "table_id", "number").prefetch_related(
        Prefetch(
            "hands",
            queryset=Hand.objects.order_by("number").prefetch_related(
                Prefetch("scores", queryset=HandScore.objects.only("hand_id", "seat_id", "points_won", "points_left"))
            ),
        )
    )
    boards: dict[int, list[GameBoard]] = {table_id: [] for table_id in table_ids}
    for game in games:
        seats = seats_by_table[game.table_id]
        boards[game.table_id].append(build_board(game, seats))
    return boards


def build_board(game: Game, seats: list[Seat]) -> GameBoard:
    """A game's hand lines and totals from its prefetched hands and scores."""
    by_number = {seat.number: seat for seat in seats}
    by_id = {seat.pk: seat for seat in seats}
    position = {seat.pk: index for index, seat in enumerate(seats)}
    totals = [0] * len(seats)
    board = GameBoard(game=game, seats=seats)
    for hand in game.hands.all():
        cells: list[ScoreCell | None] = [None] * len(seats)
        for score in hand.scores.all():
            index = position.get(score.seat_id)
            if index is None:
                continue
            totals[index] += score.points_won
            cells[index] = ScoreCell(score.points_won, score.points_left, totals[index])
        dealer = by_number.get(hand.dealer)
        winner = by_id.get(hand.winner_id)
        board.hands.append(
            HandLine(
                number=hand.number,
                dealer=dealer.label if dealer else f"Seat {hand.dealer + 1}",
                winner=winner.label if winner else "—",
                cells=cells,
            )
        )
    board.totals = totals
    if game.winner_id and game.winner_id in by_id:
        board.winner = by_id[game.winner_id].label
    return board
