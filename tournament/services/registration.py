"""A student's own part in an event: registering, checking in, withdrawing.

Every refusal is a ``RegistrationRefused`` whose message says exactly why, in words a student can act
on; the form shows it as it is. Each change runs in one transaction with the event row locked (two
students racing for the same roll number cannot both win) and leaves an audit entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format

from tournament.models import EligibilityEntry, Event, Player, Round
from tournament.services import audit, eligibility
from tournament.services.display_names import display_name_problem, normalized
from tournament.services.email_verification import verified_email


class RegistrationRefused(Exception):
    """The student's request cannot be granted; the message says why (shown to them as it is)."""


class EmailNotVerified(RegistrationRefused):
    """The account's e-mail address is not verified yet (the page offers to send the link again)."""


@dataclass(frozen=True)
class Prefill:
    roll_number: str = ""
    display_name: str = ""


def _when(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "j M Y, H:i T")


def check_registration_open(event: Event, now: datetime | None = None) -> None:
    """Raise ``RegistrationRefused`` unless the event takes registrations at ``now``."""
    now = now or timezone.now()
    if event.status != Event.Status.REGISTRATION:
        if event.status == Event.Status.DRAFT:
            raise RegistrationRefused(f"{event.name} is not open for registration yet.")
        raise RegistrationRefused(
            f"Registration for {event.name} is closed: the event is {event.get_status_display().lower()}."
        )
    if event.registration_opens and now < event.registration_opens:
        raise RegistrationRefused(f"Registration for {event.name} opens on {_when(event.registration_opens)}.")
    if event.registration_closes and now >= event.registration_closes:
        raise RegistrationRefused(f"Registration for {event.name} closed on {_when(event.registration_closes)}.")


def find_eligibility_entry(event: Event, roll_number: str) -> EligibilityEntry | None:
    """The list entry for a roll number (compared without case or surrounding spaces, like the import)."""
    roll_number = roll_number.strip()
    if not roll_number:
        return None
    return EligibilityEntry.objects.filter(event=event, roll_number__iexact=roll_number).first()


def prefill_for(event: Event, user) -> Prefill:
    """What the registration form can fill in for a user: from the list entry with their e-mail, if any.

    Only a verified address looks the list up: anyone can sign up with a listed student's address, and
    the list's roll number and name are that student's, not to be shown to whoever typed it.
    """
    email = verified_email(user)
    if not email:
        return Prefill(display_name=user.get_full_name() if hasattr(user, "get_full_name") else "")
    entry = EligibilityEntry.objects.filter(event=event, email__iexact=email).first()
    if entry is None:
        return Prefill(display_name=user.get_full_name())
    return Prefill(roll_number=entry.roll_number, display_name=entry.name[:80])


def _masked(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:2]}…@{domain}"


def list_place_claim(entry: EligibilityEntry, user) -> str:
    """How ``user`` holds the list place ``entry``: proven by their verified e-mail (no claim to confirm),
    or, where the list has no e-mail for it, a claim an organizer confirms at check-in.

    Raises ``RegistrationRefused`` when the account cannot take the place.
    """
    if not entry.email:
        return Player.Claim.PENDING
    verified = verified_email(user)
    if not verified:
        raise EmailNotVerified(
            "Verify your e-mail address first: open the link we mailed to "
            f"{user.email or 'your address'}, or have it sent again from your e-mail page."
        )
    if verified.lower() != entry.email.strip().lower():
        raise RegistrationRefused(
            f"Roll number {entry.roll_number} is on the list with another e-mail address "
            f"({_masked(entry.email)}), not {verified}. Log in with the account of that address; "
            "if the list is wrong, tell an organizer."
        )
    return Player.Claim.NONE


def register_player(
    event: Event, user, roll_number: str = "", display_name: str = "", now: datetime | None = None
) -> Player:
    """Register ``user`` for ``event``; raise ``RegistrationRefused`` saying why when they cannot.

    Checks, in order: registration open (status and window), the user not already registered, a roll
    number given and on the eligibility list when the event is list-only, the list place being the
    account's (its verified e-mail is the entry's; an entry without e-mail makes a claim an organizer
    confirms), the roll number not already taken, a display name (the list's name for the roll number
    when left empty) that nobody else in the event shows.
    """
    roll_number = roll_number.strip()
    display_name = normalized(display_name)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        check_registration_open(event, now)
        existing = Player.objects.filter(event=event, user=user).first()
        if existing is not None:
            if existing.status == Player.Status.WITHDRAWN:
                raise RegistrationRefused(
                    f"You withdrew from {event.name}; ask an organizer if you want to come back."
                )
            raise RegistrationRefused(f"You are already registered for {event.name} as {existing.display_name}.")
        entry = find_eligibility_entry(event, roll_number)
        if event.eligibility == Event.Eligibility.LIST:
            if not roll_number:
                raise RegistrationRefused(f"{event.name} is only for people on its list: enter your roll number.")
            if entry is None:
                raise RegistrationRefused(
                    f"Roll number {roll_number} is not on the eligibility list of {event.name}. "
                    "Check it, or ask an organizer if you should be on the list."
                )
            if reason := eligibility.outside_policy(event, entry):
                raise RegistrationRefused(f"Roll number {entry.roll_number} may not register for {event.name}: {reason}.")
        claim = Player.Claim.NONE
        if entry is not None:
            roll_number = entry.roll_number  # the list's spelling
            claim = list_place_claim(entry, user)
        if roll_number and Player.objects.filter(event=event, roll_number__iexact=roll_number).exists():
            raise RegistrationRefused(
                f"Roll number {roll_number} is already registered for {event.name}. "
                "If it is yours, tell an organizer."
            )
        if not display_name:
            display_name = normalized(entry.name)[:80] if entry is not None else ""
        if not display_name:
            raise RegistrationRefused("Enter the name to show on the tables and leaderboards.")
        display_name = display_name[:80]
        if problem := display_name_problem(event, display_name):
            raise RegistrationRefused(problem)
        try:
            with transaction.atomic():
                player = Player.objects.create(
                    event=event, user=user, roll_number=roll_number, display_name=display_name, claim=claim
                )
        except IntegrityError as error:  # a race the lock did not cover (e.g. another event row lock)
            raise RegistrationRefused(
                f"Roll number {roll_number}, the name {display_name} or your account is already registered "
                f"for {event.name}."
            ) from error
        audit.record(
            event,
            user,
            "player.register",
            f"Registered {player.display_name}" + (f" ({roll_number})" if roll_number else ""),
            changes={"player": player.pk, "roll_number": roll_number, "claim": claim},
        )
    return player


def check_in(player: Player) -> Player:
    """Check a registered player in for the next round, while the organizer keeps check-in open."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=player.event_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.status == Player.Status.CHECKED_IN:
            raise RegistrationRefused("You are already checked in.")
        if player.status != Player.Status.REGISTERED:
            raise RegistrationRefused(f"You cannot check in: you are {player.get_status_display().lower()}.")
        if player.claim_pending:
            raise RegistrationRefused(
                "An organizer confirms your place on the list at the check-in desk: show your college ID there."
            )
        if not event.checkin_open:
            raise RegistrationRefused(
                "Check-in is not open right now; the organizers open it shortly before a round."
            )
        player.status = Player.Status.CHECKED_IN
        player.checked_in_at = timezone.now()
        player.save(update_fields=["status", "checked_in_at"])
        audit.record(event, player.user, "player.check_in", f"{player.display_name} checked in")
    return player


def first_round_started(player: Player) -> Round | None:
    """The earliest round the player is seated in that has started, if any."""
    return (
        Round.objects.filter(tables__seats__player=player)
        .exclude(status=Round.Status.PLANNED, started_at__isnull=True)
        .order_by("number")
        .first()
    )


def withdraw(player: Player, reason: str = "") -> Player:
    """Withdraw a player from the event; refused once their first round has started."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=player.event_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.is_active:
            raise RegistrationRefused(f"You cannot withdraw: you are {player.get_status_display().lower()}.")
        if event.status == Event.Status.FINISHED:
            raise RegistrationRefused(f"{event.name} is over; there is nothing to withdraw from.")
        started = first_round_started(player)
        if started is not None:
            raise RegistrationRefused(
                f"Round {started.number} has started with you seated, so you can no longer withdraw. "
                "Talk to an organizer at the venue."
            )
        previous = player.status
        player.status = Player.Status.WITHDRAWN
        player.save(update_fields=["status"])
        audit.record(
            event,
            player.user,
            "player.withdraw",
            f"{player.display_name} withdrew",
            reason=reason,
            changes={"status": [previous, player.status]},
        )
    return player
