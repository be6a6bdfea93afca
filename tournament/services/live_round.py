"""What the organizer's live round view shows of each table: who is connected, away or played by a bot,
hands played, scores and the leader, the last change, the link to watch.

Read in a fixed number of queries whatever the size of the round (the round's overview, the live tables,
the open sockets); the view's socket re-reads it when the round's tables nudge it (`games.services.nudges`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from games.models import LiveGame
from games.services.presence import connected_by_game
from tournament.models import Game, Round
from tournament.services.rounds import round_overview

CONNECTED, AWAY, BOT, BOT_FOR_PLAYER, LEFT = "connected", "away", "bot", "bot_for_player", "left"
SEAT_STATES = {
    CONNECTED: "connected",
    AWAY: "away",
    BOT: "bot seat",
    BOT_FOR_PLAYER: "bot plays for the player",
    LEFT: "withdrawn or disqualified",
}


@dataclass
class SeatLive:
    seat_id: int
    number: int
    label: str
    is_bot: bool
    state: str
    total: int
    leader: bool = False

    @property
    def state_label(self) -> str:
        return SEAT_STATES[self.state]


@dataclass
class TableLive:
    table_id: int
    number: int
    stage: int
    game: Game | None
    seats: list[SeatLive]
    hands: int
    live_id: int | None = None
    last_change: datetime | None = None
    leader: str = ""
    no_shows: list[SeatLive] = field(default_factory=list)

    @property
    def status(self) -> str:
        return self.game.status if self.game else "none"


@dataclass
class RoundLive:
    round: Round
    tables: list[TableLive]
    now: datetime

    @property
    def time_left_seconds(self) -> int | None:
        if self.round.time_limit_at is None:
            return None
        return max(0, int((self.round.time_limit_at - self.now).total_seconds()))

    @property
    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(SEAT_STATES, 0)
        for table in self.tables:
            for seat in table.seats:
                out[seat.state] += 1
        return out


def round_live(round_: Round, now: datetime | None = None) -> RoundLive:
    """Every table of the round as the live view shows it (six queries)."""
    now = now or timezone.now()
    round_ = Round.objects.select_related("event").get(pk=round_.pk)
    lines = round_overview(round_)
    game_ids = [line.game.pk for line in lines if line.game]
    lives = {row["game_id"]: row for row in LiveGame.objects.filter(game_id__in=game_ids).values(
        "pk", "game_id", "bot_takeover", "updated_at", "status")}
    connected = connected_by_game([row["pk"] for row in lives.values()], now)
    tables = []
    for line in lines:
        game = line.game
        live = lives.get(game.pk) if game else None
        numbers = [s.seat.number for s in line.seats]
        # Game seat i (the live table's numbering) is the table seat game_seat_numbers()[i].
        game_seat = {n: i for i, n in enumerate(game.game_seat_numbers(numbers))} if game else {}
        takeover = list(live["bot_takeover"]) if live else []
        here = connected.get(live["pk"], set()) if live else set()
        seats = []
        for entry in line.seats:
            seat = entry.seat
            index = game_seat.get(seat.number)
            if seat.is_bot:
                state = BOT
            elif seat.player.status not in seat.player.ACTIVE_STATUSES:
                state = LEFT
            elif index is not None and index < len(takeover) and takeover[index]:
                state = BOT_FOR_PLAYER
            elif index is not None and index in here:
                state = CONNECTED
            else:
                state = AWAY
            seats.append(SeatLive(seat.pk, seat.number, seat.label, seat.is_bot, state, entry.total))
        best = max((s.total for s in seats), default=0)
        leaders = [s for s in seats if s.total == best] if best > 0 else []
        for s in leaders:
            s.leader = True
        table = TableLive(line.table.pk, line.table.number, line.table.stage, game, seats, line.hands,
                          live_id=live["pk"] if live else None, last_change=live["updated_at"] if live else None,
                          leader=", ".join(s.label for s in leaders))
        table.no_shows = [s for s in seats if s.state in (AWAY, BOT_FOR_PLAYER) and not s.is_bot]
        tables.append(table)
    return RoundLive(round_, tables, now)
