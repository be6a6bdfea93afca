"""The tables a user's bot plays: the tournament games they are seated at (running or paused) and their
practice games, as the bots' JSON API (`/api/my-tables/`) and the bots' stream (`tournament.bot_stream`)
list them. A tournament game's live table is created on the first ask, as the table link does.

Here in `tournament` because it lists both apps' games.
"""

from __future__ import annotations

from django.urls import reverse

from games.models import LiveGame
from games.services.seats import seat_holders, seat_of_user
from tournament.models import Event, Game, Player, Round, Seat
from tournament.services.live_tables import live_game_for

RECENT_FINISHED_PRACTICE = 5


def table_entry(live: LiveGame, user, game: Game | None = None) -> dict:
    """One table as the API and the stream show it: where it is in the event (None for practice), the
    user's seat, the rules, the socket to open."""
    seat = seat_of_user(seat_holders(live), user)
    round_ = game.table.round if game is not None else None
    return {
        "game": live.pk, "kind": live.kind, "title": live.title, "seat": seat, "status": live.status,
        "rules": live.preset, "bot_seat": live.token_moves_only,
        "event": round_.event.slug if round_ else None,
        "round": round_.number if round_ else None,
        "stage": game.table.stage if round_ and round_.kind == Round.Kind.BRACKET else None,
        "table": game.table.number if game is not None else None,
        "ws_path": live.ws_path, "url": reverse("games:table", args=[live.pk]),
    }


def tournament_tables(user) -> list[dict]:
    """Live games of the user's running (or paused) tournament games, newest first."""
    seats = (Seat.objects.filter(player__user=user, player__status__in=Player.ACTIVE_STATUSES,
                                 table__games__status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
             .values_list("table_id", "number").distinct())
    mine = set(seats)
    games = (Game.objects.filter(table_id__in={t for t, _ in mine},
                                 status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
             .select_related("table__round__event").order_by("-started_at", "-pk"))
    out = []
    for game in games:
        # A partner rotation plays some of a table's seats per game (Game.seat_order): only the user's.
        if game.seat_order and not any((game.table_id, n) in mine for n in game.seat_order):
            continue
        table = table_entry(live_game_for(game), user, game)
        if table["seat"] is not None:
            out.append(table)
    return out


def practice_tables(user, finished: int = RECENT_FINISHED_PRACTICE) -> list[dict]:
    """The user's running practice games and the last `finished` finished ones, newest first."""
    practice = LiveGame.objects.filter(kind=LiveGame.Kind.PRACTICE, owner=user)
    running = list(practice.filter(status=LiveGame.Status.RUNNING).order_by("-created_at"))
    done = list(practice.filter(status=LiveGame.Status.FINISHED).order_by("-created_at")[:finished]) if finished else []
    return [table_entry(live, user) for live in running + done]


def check_in_events(user) -> list[str]:
    """Slugs of the events whose check-in is open and where the user is registered, not yet checked in."""
    return list(Event.objects.filter(checkin_open=True, players__user=user,
                                     players__status=Player.Status.REGISTERED).values_list("slug", flat=True))
