"""Organizer actions on places on the list: free or reassign a roll number, add a walk-in.

A roll number belongs to one player of an event. When the wrong account holds it, an organizer frees it
(the right student can then register) or moves it to the right person's account or player. A walk-in is
a player the organizer adds at the desk, with an account or without one. Each action runs in one
transaction with the event and player rows locked and leaves an audit entry with who and why.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournament.models import Event, Player
from tournament.services import audit, eligibility
from tournament.services.display_names import display_name_problem, display_name_taken, normalized
from tournament.services.players import PlayerActionError, required_reason
from tournament.services.registration import find_eligibility_entry


def find_account(identifier: str):
    """The account whose username or e-mail is ``identifier`` (either, ignoring case), or None."""
    identifier = identifier.strip()
    if not identifier:
        return None
    users = list(get_user_model().objects.filter(Q(username__iexact=identifier) | Q(email__iexact=identifier))[:2])
    if len(users) > 1:
        raise PlayerActionError(f"Several accounts match {identifier}; give the username.")
    return users[0] if users else None


def _locked(event: Event, *players: Player) -> tuple[Event, list[Player]]:
    event = Event.objects.select_for_update().get(pk=event.pk)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[p.pk for p in players])}
    return event, [locked[p.pk] for p in players]


def _withdraw_in_place(player: Player) -> list[str]:
    if not player.is_active:
        return []
    before, player.status = player.status, Player.Status.WITHDRAWN
    return [before, player.status]


def _give_up_list_name(event: Event, player: Player, roll_number: str) -> list[str] | None:
    """Rename ``player``, who is losing ``roll_number``, when they show the list's name for it (registration
    takes it when no name is given): the name goes with the place, so the person it belongs to can take
    both. The new name is their account's full name, else their username. Returns [old, new], or None."""
    entry = find_eligibility_entry(event, roll_number)
    if entry is None or player.display_name.casefold() != normalized(entry.name)[:80].casefold():
        return None
    user = player.user
    candidates = [normalized(user.get_full_name()), user.get_username()] if user is not None else []
    for name in [*candidates, f"Player {player.pk}"]:
        name = name[:80]
        if name and name.casefold() != player.display_name.casefold() and not display_name_taken(
                event, name, except_player=player):
            old, player.display_name = player.display_name, name
            return [old, name]
    return None


def free_roll_number(player: Player, actor, reason: str, withdraw: bool = False) -> Player:
    """Take the roll number away from ``player`` (and withdraw them if asked): its owner can register."""
    reason = required_reason(reason)
    with transaction.atomic():
        event, (player,) = _locked(player.event, player)
        if not player.roll_number:
            raise PlayerActionError(f"{player} holds no roll number.")
        freed = player.roll_number
        changes = {"roll_number": [freed, ""]}
        if renamed := _give_up_list_name(event, player, freed):
            changes["display_name"] = renamed
        player.roll_number, player.claim = "", Player.Claim.NONE
        if withdraw and (status := _withdraw_in_place(player)):
            changes["status"] = status
        player.save(update_fields=["roll_number", "claim", "status", "display_name"])
        audit.record(event, actor, "player.free_roll_number", f"Roll number {freed} freed from {player}",
                     reason=reason, changes=changes)
    return player


def reassign_roll_number(
    player: Player, actor, reason: str, *, to_user=None, to_player: Player | None = None,
    display_name: str = "", withdraw: bool = False,
) -> Player:
    """Move ``player``'s roll number to another player of the event, or to an account (registered for
    the event here if it is not yet, named ``display_name`` or as on the list). Returns the new holder."""
    reason = required_reason(reason)
    if (to_user is None) == (to_player is None):
        raise PlayerActionError("Choose one account or one player to give the roll number to.")
    with transaction.atomic():
        if to_player is None:
            to_player = Player.objects.filter(event=player.event, user=to_user).first()
        event, locked = _locked(player.event, *([player, to_player] if to_player else [player]))
        player = locked[0]
        to_player = locked[1] if len(locked) > 1 else None
        roll_number = player.roll_number
        if not roll_number:
            raise PlayerActionError(f"{player} holds no roll number to reassign.")
        if to_player is not None:
            if to_player.event_id != event.pk:
                raise PlayerActionError(f"{to_player} is not a player of {event}.")
            if to_player.pk == player.pk:
                raise PlayerActionError(f"{player} already holds roll number {roll_number}.")
            if to_player.roll_number:
                raise PlayerActionError(
                    f"{to_player} already holds roll number {to_player.roll_number}; free it first.")
        changes: dict = {"roll_number": roll_number, "from_player": player.pk}
        if renamed := _give_up_list_name(event, player, roll_number):
            changes["from_display_name"] = renamed
        player.roll_number, player.claim = "", Player.Claim.NONE
        if withdraw and (status := _withdraw_in_place(player)):
            changes["from_status"] = status
        player.save(update_fields=["roll_number", "claim", "status", "display_name"])
        if to_player is None:
            entry = find_eligibility_entry(event, roll_number)
            name = normalized(display_name) or (entry.name[:80] if entry else "") or to_user.get_username()
            if problem := display_name_problem(event, name):
                raise PlayerActionError(problem + " Give the display name to use.")
            to_player = Player.objects.create(event=event, user=to_user, display_name=name[:80],
                                              roll_number=roll_number, claim=Player.Claim.CONFIRMED)
            changes["registered"] = True
        else:
            to_player.roll_number, to_player.claim = roll_number, Player.Claim.CONFIRMED
            to_player.save(update_fields=["roll_number", "claim"])
        changes["to_player"] = to_player.pk
        audit.record(event, actor, "player.reassign_roll_number",
                     f"Roll number {roll_number} moved from {player} to {to_player}", reason=reason,
                     changes=changes)
    return to_player


def add_walk_in(
    event: Event, actor, reason: str, display_name: str, *, roll_number: str = "", user=None,
    check_in: bool = False,
) -> Player:
    """Register someone at the desk: with an account (``user``) or without one; checked in if asked."""
    reason = required_reason(reason)
    display_name = normalized(display_name)[:80]
    if not display_name:
        raise PlayerActionError("Enter the name to show on the tables and leaderboards.")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise PlayerActionError(f"{event} is finished; nobody can join it.")
        if user is not None and (existing := Player.objects.filter(event=event, user=user).first()):
            raise PlayerActionError(
                f"{user.get_username()} is already registered as {existing} ({existing.get_status_display()})."
                + (" Reinstate them instead." if not existing.is_active else ""))
        roll_number = roll_number.strip()
        if roll_number:
            entry = find_eligibility_entry(event, roll_number)
            if entry is None and event.eligibility == Event.Eligibility.LIST:
                raise PlayerActionError(f"Roll number {roll_number} is not on the list of {event}; "
                                        "add it to the list first, or leave the roll number empty.")
            if entry is not None and event.eligibility == Event.Eligibility.LIST and (
                    outside := eligibility.outside_policy(event, entry)):
                raise PlayerActionError(
                    f"{entry.name} ({entry.roll_number}) is outside the eligibility policy of {event}: {outside}. "
                    "Change the policy on the event's page if they may play.")
            roll_number = entry.roll_number if entry else roll_number
            holder = Player.objects.filter(event=event, roll_number__iexact=roll_number).first()
            if holder is not None:
                raise PlayerActionError(f"Roll number {roll_number} is held by {holder}; free or reassign it.")
        if problem := display_name_problem(event, display_name):
            raise PlayerActionError(problem)
        player = Player.objects.create(
            event=event, user=user, display_name=display_name, roll_number=roll_number,
            claim=Player.Claim.CONFIRMED if roll_number else Player.Claim.NONE,
            status=Player.Status.CHECKED_IN if check_in else Player.Status.REGISTERED,
            checked_in_at=timezone.now() if check_in else None,
        )
        audit.record(event, actor, "player.walk_in", f"Walk-in {player}" + (f" ({roll_number})" if roll_number else ""),
                     reason=reason, changes={"player": player.pk, "account": user.pk if user else None,
                                             "roll_number": roll_number, "status": player.status})
    return player
