"""A tournament game paused, resumed or finished by an organizer (its live table follows).

Finishing a game early needs a reason; what follows a finished game is ``services.game_end``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.services.lifecycle import LiveTableBusy, tournament_game_status_changed
from tournament.models import Game
from tournament.services import audit
from tournament.services.game_end import game_ended
from tournament.services.rounds import RoundError, seat_totals

GAME_ACTIONS = {
    "pause": ((Game.Status.RUNNING,), Game.Status.PAUSED),
    "resume": ((Game.Status.PAUSED,), Game.Status.RUNNING),
    "finish": ((Game.Status.RUNNING, Game.Status.PAUSED), Game.Status.FINISHED),
}


def change_game_status(game: Game, action: str, actor, reason: str = "") -> Game:
    """Pause, resume or finish a game. Finishing early needs a reason; the leader (if one) wins."""
    if action not in GAME_ACTIONS:
        raise RoundError(f"Unknown game action {action!r}.")
    allowed, new_status = GAME_ACTIONS[action]
    if action == "finish" and not reason.strip():
        raise RoundError("Say why the game is finished before reaching the target.")
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table__round__event").get(pk=game.pk)
        if game.status not in allowed:
            done = {"pause": "paused", "resume": "resumed", "finish": "finished"}[action]
            raise RoundError(f"{game} is {game.get_status_display().lower()}; it cannot be {done}.")
        before = game.status
        game.status = new_status
        changes = {"status": [before, new_status]}
        fields = ["status"]
        if action == "finish":
            totals = seat_totals([game.pk]).get(game.pk, {})
            best = max(totals.values(), default=0)
            leaders = [seat for seat, total in totals.items() if total == best]
            game.winner_id = leaders[0] if best > 0 and len(leaders) == 1 else None
            game.finished_at = timezone.now()
            fields += ["winner", "finished_at"]
            changes["winner_seat"] = [None, game.winner_id]
        game.save(update_fields=fields)
        _live_table_follows(game, action)
        round_ = game.table.round
        audit.record(round_.event, actor, f"game.{action}", f"Round {round_.number}, {game}",
                     reason=reason.strip(), changes=changes)
        if action == "finish":
            game_ended(game)
    return game


def _live_table_follows(game: Game, action: str) -> None:
    """The game's live table stops or restarts its clock, or closes, and tells its sockets (same transaction)."""
    try:
        tournament_game_status_changed(game, action)
    except LiveTableBusy as busy:
        raise RoundError(f"{game}: {busy}.") from busy
