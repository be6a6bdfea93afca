"""A tournament game ended: what follows, written once for every way a game ends (at its target at the live
table, a partner rotation's block after its hands, an organizer finishing it, a hand recorded by hand).
"""

from __future__ import annotations

from tournament.live import notify_scores_changed
from tournament.models import Game
from tournament.services.brackets import on_game_finished
from tournament.services.rounds import finish_round_if_done


def game_ended(game: Game) -> None:
    """`game` has just been saved finished: its round finishes if every game of it has, its bracket (if it
    is in one) advances, and the event's watchers are told once the transaction commits. Call inside the
    transaction that finished the game, with the game locked."""
    round_ = game.table.round
    finish_round_if_done(round_)
    on_game_finished(game)
    notify_scores_changed(round_.event)
