"""The JSON API for bots (docs/bots.md): the tables of the access token's user.

One endpoint, here because it lists both apps' games: tournament games the user is seated at (their live
game is created on the first ask, as the table link does) and the user's practice games. Authenticated by
`Authorization: Bearer <token>` only (access_tokens.http).
"""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import reverse

from access_tokens.http import token_required
from games.models import LiveGame
from games.services.seats import seat_holders, seat_of_user
from tournament.models import Game, Player, Seat
from tournament.services.live_tables import live_game_for

RECENT_FINISHED_PRACTICE = 5


def _table(live: LiveGame, user, event: str | None = None) -> dict:
    seat = seat_of_user(seat_holders(live), user)
    return {
        "game": live.pk, "kind": live.kind, "title": live.title, "seat": seat, "status": live.status,
        "rules": live.preset, "bot_seat": live.token_moves_only, "event": event,
        "ws_path": live.ws_path, "url": reverse("games:table", args=[live.pk]),
    }


def _tournament_tables(user) -> list[dict]:
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
        live = live_game_for(game)
        table = _table(live, user, game.table.round.event.slug)
        if table["seat"] is not None:
            out.append(table)
    return out


def _practice_tables(user) -> list[dict]:
    """The user's running practice games and the last few finished ones, newest first."""
    practice = LiveGame.objects.filter(kind=LiveGame.Kind.PRACTICE, owner=user)
    running = list(practice.filter(status=LiveGame.Status.RUNNING).order_by("-created_at"))
    finished = list(practice.filter(status=LiveGame.Status.FINISHED).order_by("-created_at")
                    [:RECENT_FINISHED_PRACTICE])
    return [_table(live, user) for live in running + finished]


@token_required
def my_tables(request):
    if request.method != "GET":
        return JsonResponse({"error": "Use GET."}, status=405, headers={"Allow": "GET"})
    user = request.user
    return JsonResponse({"user": user.get_username(),
                         "tables": _tournament_tables(user) + _practice_tables(user)},
                        headers={"Cache-Control": "no-store"})
