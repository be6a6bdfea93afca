"""Builders for the participation tests: moves at a tournament game's live table by the player, the turn
timer or a bot, and hands turned into hands played live (not recorded by hand)."""

from __future__ import annotations

from django.db.models import Max

from games.models import LiveGame, LiveMove
from tests.tournament.organizer_factories import pause_for_paper
from tournament.models import Game, Hand, Seat

PLAYER, TIMER, BOT, SYSTEM = (LiveMove.Actor.PLAYER, LiveMove.Actor.TIMER, LiveMove.Actor.BOT,
                              LiveMove.Actor.SYSTEM)


def live_game_of(game: Game) -> LiveGame:
    """The game's live table (made when the test's round never opened one)."""
    live = LiveGame.objects.filter(game=game).first()
    if live is None:
        seats = len(game.seat_order) or Seat.objects.filter(table_id=game.table_id).count()
        live = LiveGame.objects.create(kind=LiveGame.Kind.TOURNAMENT, game=game, title=str(game),
                                       preset="ocho-plato", seat_count=seats, state={})
    return live


def move(game: Game, game_seat: int | None, actor: str = PLAYER) -> LiveMove:
    """One stored change at the game's live table by ``actor`` for ``game_seat`` (a game seat number)."""
    live = live_game_of(game)
    last = LiveMove.objects.filter(live_game=live).aggregate(last=Max("version"))["last"] or 0
    return LiveMove.objects.create(live_game=live, version=last + 1, hand_number=0, seat=game_seat, actor=actor)


def bots_played(game: Game) -> None:
    """The game's hands were played live by the timer and the takeover bots alone: every seat timed out,
    then a bot played for it, and the hands were scored."""
    Hand.objects.filter(game=game).update(source=Hand.Source.LIVE)
    move(game, None, SYSTEM)  # the deal
    seats = len(game.seat_order) or Seat.objects.filter(table_id=game.table_id).count()
    for game_seat in range(seats):
        move(game, game_seat, TIMER)
        move(game, game_seat, BOT)


def table_players(game: Game) -> list[int]:
    return list(Seat.objects.filter(table_id=game.table_id).order_by("number").values_list("player_id", flat=True))


def played_live_except(game: Game, absent: set[int]) -> None:
    """The game's players made moves of their own at its live table, except the ``absent`` players (ids),
    for whom only the turn timer and the takeover bot played. The game is paused first, as an organizer does
    to record its hands by hand; the live table's version counter then follows the moves stored here."""
    pause_for_paper(game)
    move(game, None, SYSTEM)  # the deal
    for seat in Seat.objects.filter(table_id=game.table_id).order_by("number"):
        if seat.player_id in absent:
            move(game, seat.number, TIMER)
            move(game, seat.number, BOT)
        else:
            move(game, seat.number, PLAYER)
    live = live_game_of(game)
    LiveGame.objects.filter(pk=live.pk).update(
        version=LiveMove.objects.filter(live_game=live).aggregate(last=Max("version"))["last"])
