"""Organizer actions on players: check in by hand, withdraw, disqualify (each with an audit entry)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournament.models import Player
from tournament.services import audit


class PlayerActionError(ValueError):
    """The action does not apply to this player now; the message says why."""


def check_in(player: Player, actor, reason: str = "") -> Player:
    """Check a registered player in for the next round (an organizer doing it at the desk)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if player.status != Player.Status.REGISTERED:
            raise PlayerActionError(f"{player} is {player.get_status_display().lower()}, not registered.")
        player.status = Player.Status.CHECKED_IN
        player.checked_in_at = timezone.now()
        player.save(update_fields=["status", "checked_in_at"])
        audit.record(player.event, actor, "player.check_in", f"Player {player}", reason=reason.strip(),
                     changes={"status": [Player.Status.REGISTERED, Player.Status.CHECKED_IN]})
    return player


def _remove(player: Player, actor, reason: str, status: str, action: str) -> Player:
    reason = (reason or "").strip()
    if not reason:
        raise PlayerActionError("Give a reason; it is kept in the audit log.")
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if not player.is_active:
            raise PlayerActionError(f"{player} is already {player.get_status_display().lower()}.")
        before = player.status
        player.status = status
        player.save(update_fields=["status"])
        audit.record(player.event, actor, action, f"Player {player}", reason=reason,
                     changes={"status": [before, status]})
    return player


def withdraw(player: Player, actor, reason: str) -> Player:
    """Withdraw a player from the event (they keep the hands already played)."""
    return _remove(player, actor, reason, Player.Status.WITHDRAWN, "player.withdraw")


def disqualify(player: Player, actor, reason: str) -> Player:
    """Disqualify a player (they keep the hands already played; the reason is audited)."""
    return _remove(player, actor, reason, Player.Status.DISQUALIFIED, "player.disqualify")
