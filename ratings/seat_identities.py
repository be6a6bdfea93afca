"""Who is rated for each game seat of a finished live game: a person, a person's bot or a house bot.

A seat is a bot's when the game took players' moves only through access tokens
(`LiveGame.token_moves_only`) or when any of the seat's moves came through one (`LiveMove.via_token`); a
seat without a player is a house bot of its kind. A tournament player without an account (a walk-in) is
not rated. Read from the tournament's seats (not `games.services.seats.seat_holders`, which drops players
who withdrew: their finished games still count).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import LiveGame, LiveMove
from ratings.models import Competitor
from tournament.models import Seat


@dataclass(frozen=True)
class Identity:
    kind: str
    user_id: int | None
    bot_kind: str = ""


def _tournament_seats(live: LiveGame) -> list[tuple[int | None, str]]:
    """(user id, bot kind) per game seat, in the live game's seat order."""
    rows = {number: (user_id, bot_kind) for number, user_id, bot_kind in
            Seat.objects.filter(table__games=live.game_id).values_list("number", "player__user_id", "bot_kind")}
    order = live.game.seat_order or sorted(rows)
    return [rows.get(n, (None, "")) for n in order]


def identities(live: LiveGame) -> list[Identity | None]:
    """One per game seat (None: not rated)."""
    if live.kind == LiveGame.Kind.TOURNAMENT:
        seats = _tournament_seats(live)
    else:
        kinds = list(live.bot_kinds) + [""] * (live.seat_count - len(live.bot_kinds))
        seats = [(None if kind else live.owner_id, kind) for kind in kinds[:live.seat_count]]
    via_token = set(LiveMove.objects.filter(live_game=live, via_token=True).values_list("seat", flat=True))
    out: list[Identity | None] = []
    for seat, (user_id, bot_kind) in enumerate(seats):
        if user_id is not None:
            bot = live.token_moves_only or seat in via_token
            out.append(Identity(Competitor.Kind.BOT if bot else Competitor.Kind.PERSON, user_id))
        elif bot_kind:
            out.append(Identity(Competitor.Kind.HOUSE_BOT, None, bot_kind))
        else:
            out.append(None)
    return out
