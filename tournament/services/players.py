"""Organizer actions on players: check in by hand, confirm a claim, withdraw, disqualify, reinstate.

Each runs in one transaction with the player row locked and leaves an audit entry with who and why.
"""

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
        if player.claim_pending:
            raise PlayerActionError(
                f"{player} claims roll number {player.roll_number}, whose list entry has no e-mail: "
                "check their ID and confirm the claim first."
            )
        player.status = Player.Status.CHECKED_IN
        player.checked_in_at = timezone.now()
        player.save(update_fields=["status", "checked_in_at"])
        audit.record(player.event, actor, "player.check_in", f"Player {player}", reason=reason.strip(),
                     changes={"status": [Player.Status.REGISTERED, Player.Status.CHECKED_IN]})
    return player


def required_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise PlayerActionError("Give a reason; it is kept in the audit log.")
    return reason


def confirm_claim(player: Player, actor, reason: str) -> Player:
    """Confirm that a player holds the roll number they claimed (its list entry has no e-mail to prove it)."""
    reason = required_reason(reason)
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if not player.claim_pending:
            raise PlayerActionError(f"{player} has no claim waiting for confirmation.")
        player.claim = Player.Claim.CONFIRMED
        player.save(update_fields=["claim"])
        audit.record(player.event, actor, "player.confirm_claim", f"Player {player} ({player.roll_number})",
                     reason=reason, changes={"claim": [Player.Claim.PENDING, Player.Claim.CONFIRMED]})
    return player


def reinstate(player: Player, actor, reason: str) -> Player:
    """Bring a withdrawn or disqualified player back as registered (they check in again)."""
    reason = required_reason(reason)
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if player.is_active:
            raise PlayerActionError(f"{player} is {player.get_status_display().lower()}; nothing to reinstate.")
        if player.event.status == player.event.Status.FINISHED:
            raise PlayerActionError(f"{player.event} is finished; nobody can be reinstated.")
        before = player.status
        player.status = Player.Status.REGISTERED
        player.checked_in_at = None
        player.save(update_fields=["status", "checked_in_at"])
        audit.record(player.event, actor, "player.reinstate", f"Player {player}", reason=reason,
                     changes={"status": [before, player.status]})
    return player


def _remove(player: Player, actor, reason: str, status: str, action: str) -> Player:
    reason = required_reason(reason)
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
