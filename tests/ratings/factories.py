"""Finished (and half-played) live games for the ratings and replay tests, played through the real move
service and sweeper: players' seats take their first legal action, bots and deals come from the sweeper."""

from __future__ import annotations

from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import lifecycle, timers
from games.services.moves import submit_move
from games.services.seats import turn_game_seat
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for


def play(live: LiveGame, seat_users: dict, *, stop_after_moves: int | None = None, via_token: bool = False) -> LiveGame:
    """Play `live` until it is finished (or `stop_after_moves` player moves have been made)."""
    moves = 0
    for _ in range(20_000):
        live = LiveGame.objects.select_related("game").get(pk=live.pk)
        if live.status == LiveGame.Status.FINISHED or (stop_after_moves is not None and moves >= stop_after_moves):
            return live
        game = engine.Game.from_dict(live.state)
        seat = turn_game_seat(game, live.hand_seats)
        if seat is None or seat not in seat_users:
            assert timers.sweep_once(timezone.now()) == 1
            continue
        hand_seat = live.hand_seats.index(seat)
        action = engine.legal_actions(game.hand, hand_seat)[0].to_dict()
        submit_move(live.pk, seat_users[seat], live.version, action, via_token=via_token)
        moves += 1
    raise AssertionError("the game did not finish")


def finished_tournament_game(players: int = 2, bots: int = 1, *, seed: int = 7, target: int = 30,
                             preset: str = "uno-official", **event_fields) -> tuple[LiveGame, list]:
    tgame, users = make_tournament_game(players, bots=bots, target_score=target, rules_preset=preset,
                                        **event_fields)
    live = live_game_for(tgame, seed=seed)
    return play(live, dict(enumerate(users))), users


def finished_practice_game(user, *, seed: int = 3, target: int = 30, preset: str = "uno-official",
                           opponents: int = 2) -> LiveGame:
    live = lifecycle.start_practice_game(user, preset, opponents, seed=seed, turn_seconds=0, target=target)
    return play(live, {0: user})
