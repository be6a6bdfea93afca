"""A tournament game ended: what follows, written once for every way a game ends (at its target at the live
table, a partner rotation's block after its hands, an organizer finishing it, a hand recorded by hand).
"""

from __future__ import annotations

from tournament import signals
from tournament.models import Event, Game, Round
from tournament.page_notices import notify_my_event_changed, notify_scores_changed
from tournament.services.advancing import AdvanceResult, on_game_finished


def game_ended(game: Game) -> AdvanceResult | None:
    """`game` has just been saved finished: its round finishes if every game of it has, its bracket (if it
    is in one) advances, the event's watchers and students' pages are told once the transaction commits,
    and `signals.game_ended` is sent. Call inside the transaction that finished the game, with the game
    locked. Returns what the bracket did (None outside brackets); a ``BracketError`` from advancing
    propagates, so the caller's transaction rolls back."""
    round_ = game.table.round
    finish_round_if_done(round_)
    advanced = on_game_finished(game)
    notify_scores_changed(round_.event)
    notify_my_event_changed(round_.event_id)  # through or out, the round over, the next stage's table
    signals.game_ended.send(sender=Event, game=game)
    return advanced


def finish_round_if_done(round_: Round) -> None:
    """Mark the round finished once every one of its games is (call inside the caller's transaction)."""
    unfinished = Game.objects.filter(table__round=round_).exclude(status=Game.Status.FINISHED).exists()
    if not unfinished and round_.status == Round.Status.RUNNING:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)
