"""A tournament game paused, resumed or finished by an organizer (its live table follows).

Finishing a game early needs a reason; what follows a finished game is ``services.game_end``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.services.lifecycle import LiveTableBusy, tournament_game_status_changed
from tournament import signals
from tournament.models import Event, Game
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
            raise RoundError(f"{game} is {game.get_status_display().lower()}; it cannot be {DONE[action]}.")
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
        else:
            signals.game_status_changed.send(sender=Event, game=game, action=action)
    return game


def _live_table_follows(game: Game, action: str) -> None:
    """The game's live table stops or restarts its clock, or closes, and tells its sockets (same transaction)."""
    try:
        tournament_game_status_changed(game, action)
    except LiveTableBusy as busy:
        raise RoundError(f"{game}: {busy}.") from busy


DONE = {"pause": "paused", "resume": "resumed", "finish": "finished"}


def organizer_game_action(game: Game, action: str, actor, reason: str = "") -> str:
    """An organizer's pause, resume or finish from an admin page: a pause needs a reason too, as finishing
    does (both go to the audit log). Returns the confirmation, "Table 2 paused."."""
    if action == "pause" and not reason.strip():
        raise RoundError(f"Say why table {game.table.number} is paused (it goes to the audit log).")
    change_game_status(game, action, actor, reason=reason)
    return f"Table {game.table.number} {DONE[action]}."
