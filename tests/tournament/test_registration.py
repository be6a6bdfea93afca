"""The registration service: registering (every refusal with its reason), checking in, withdrawing."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.tournament.organizer_factories import make_verified_user
from tests.tournament.standings_data import make_event, make_players, seat_round
from tournament.models import AuditEntry, EligibilityEntry, Event, Player, Round
from tournament.services.registration import (
    EmailNotVerified,
    RegistrationRefused,
    check_in,
    prefill_for,
    register_player,
    withdraw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def student():
    return make_verified_user("asha", email="asha@jadavpur.example")


@pytest.fixture
def listed_event():
    event = make_event(slug="chem", status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST)
    EligibilityEntry.objects.create(
        event=event, roll_number="CHE2201", name="Asha Sen", email="asha@jadavpur.example",
        department="Chemical Engineering", programme="UG", year=2,
    )
    EligibilityEntry.objects.create(
        event=event, roll_number="CHE2202", name="Ravi Das", email="ravi@jadavpur.example",
        department="Chemical Engineering", programme="UG", year=2,
    )
    return event


def refusal(callable_, *args, **kwargs) -> str:
    with pytest.raises(RegistrationRefused) as caught:
        callable_(*args, **kwargs)
    return str(caught.value)


# --- registering -----------------------------------------------------------------------------------


def test_eligible_student_registers_with_the_lists_spelling_and_an_audit_entry(listed_event, student):
    player = register_player(listed_event, student, " che2201 ", "Asha")
    assert (player.roll_number, player.display_name, player.status) == ("CHE2201", "Asha", "registered")
    assert AuditEntry.objects.filter(event=listed_event, action="player.register", actor=student).exists()


def test_empty_display_name_takes_the_name_on_the_list(listed_event, student):
    assert register_player(listed_event, student, "CHE2201", "  ").display_name == "Asha Sen"


def test_open_event_needs_no_roll_number_but_a_name(student):
    event = make_event(slug="open", status=Event.Status.REGISTRATION)
    assert refusal(register_player, event, student, "", "") == "Enter the name to show on the tables and leaderboards."
    assert register_player(event, student, "", "Asha").roll_number == ""


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (Event.Status.DRAFT, "is not open for registration yet"),
        (Event.Status.RUNNING, "Registration for Event chem is closed: the event is running."),
        (Event.Status.FINISHED, "the event is finished"),
    ],
)
def test_refused_when_the_status_is_not_registration(listed_event, student, status, expected):
    Event.objects.filter(pk=listed_event.pk).update(status=status)
    assert expected in refusal(register_player, listed_event, student, "CHE2201", "Asha")
    assert not Player.objects.exists()


def test_refused_before_the_window_opens(listed_event, student):
    listed_event.registration_opens = timezone.now() + timedelta(days=1)
    listed_event.save()
    assert "Registration for Event chem opens on" in refusal(register_player, listed_event, student, "CHE2201", "A")


def test_refused_after_the_window_closes(listed_event, student):
    listed_event.registration_closes = timezone.now() - timedelta(minutes=1)
    listed_event.save()
    assert "Registration for Event chem closed on" in refusal(register_player, listed_event, student, "CHE2201", "A")


def test_refused_when_already_registered(listed_event, student):
    register_player(listed_event, student, "CHE2201", "Asha")
    message = refusal(register_player, listed_event, student, "CHE2202", "Asha again")
    assert message == "You are already registered for Event chem as Asha."


def test_refused_without_a_roll_number_on_a_list_event(listed_event, student):
    assert "enter your roll number" in refusal(register_player, listed_event, student, "", "Asha")


def test_refused_when_the_roll_number_is_not_on_the_list(listed_event, student):
    message = refusal(register_player, listed_event, student, "MEC9999", "Asha")
    assert message.startswith("Roll number MEC9999 is not on the eligibility list of Event chem.")


def test_refused_when_someone_else_registered_the_roll_number(listed_event, student):
    EligibilityEntry.objects.filter(roll_number="CHE2202").update(email="")  # nothing proves whose it is
    other = make_verified_user("ravi", email="ravi@elsewhere.example")
    register_player(listed_event, other, "CHE2202", "Ravi")
    message = refusal(register_player, listed_event, student, "che2202", "Asha")
    assert message.startswith("Roll number CHE2202 is already registered for Event chem.")


# --- the list place is the person's: verified e-mail, or a claim an organizer confirms --------------


def test_a_classmates_roll_number_is_refused_for_an_account_with_another_email(listed_event, student):
    message = refusal(register_player, listed_event, student, "CHE2202", "Ravi")
    assert message.startswith("Roll number CHE2202 is on the list with another e-mail address (ra…@jadavpur.example)")
    assert "not asha@jadavpur.example" in message and "ravi@jadavpur.example" not in message
    # the real Ravi, whose verified address is the list's in other letters, then registers
    ravi = make_verified_user("ravi", email="Ravi@Jadavpur.EXAMPLE")
    assert register_player(listed_event, ravi, "CHE2202", "").display_name == "Ravi Das"


def test_an_unverified_email_is_refused_with_verify_first(listed_event):
    unverified = get_user_model().objects.create_user("asha", email="asha@jadavpur.example")
    with pytest.raises(EmailNotVerified) as caught:
        register_player(listed_event, unverified, "CHE2201", "Asha")
    assert str(caught.value).startswith("Verify your e-mail address first")
    assert not Player.objects.exists()


def test_a_verified_address_that_is_no_longer_the_accounts_counts_for_nothing(listed_event, student):
    student.email = "asha.new@jadavpur.example"
    student.save()
    assert "Verify your e-mail address first" in refusal(register_player, listed_event, student, "CHE2201", "A")
    student.email = "asha@jadavpur.example"  # back to the address it verified
    student.save()
    assert register_player(listed_event, student, "CHE2201", "A").claim == ""


def test_a_list_entry_without_email_makes_a_claim_that_is_not_seated_until_confirmed(listed_event):
    EligibilityEntry.objects.filter(roll_number="CHE2202").update(email="")
    anyone = get_user_model().objects.create_user("ravi")  # no address needed: an organizer checks the ID
    player = register_player(listed_event, anyone, "CHE2202", "")
    assert (player.claim, player.claim_pending) == (Player.Claim.PENDING, True)
    assert AuditEntry.objects.get(action="player.register").changes["claim"] == "pending"
    Event.objects.filter(pk=listed_event.pk).update(checkin_open=True)
    assert refusal(check_in, player).startswith("An organizer confirms your place on the list at the check-in desk")


def test_display_names_are_unique_in_the_event_ignoring_case(listed_event, student):
    other = make_verified_user("ravi", email="ravi@jadavpur.example")
    register_player(listed_event, other, "CHE2202", "Asha")
    message = refusal(register_player, listed_event, student, "CHE2201", "  ASHA ")
    assert message == 'Someone in Event chem already shows as "ASHA". Add an initial or a surname to tell you ' \
                      'apart, e.g. "ASHA K."'
    assert register_player(listed_event, student, "CHE2201", "Asha S.").display_name == "Asha S."


def test_the_same_name_in_another_event_is_fine(listed_event, student):
    event = make_event(slug="open", status=Event.Status.REGISTRATION)
    register_player(event, make_verified_user("ravi"), "", "Asha")
    assert register_player(listed_event, student, "CHE2201", "Asha").display_name == "Asha"


def test_a_withdrawn_player_cannot_simply_register_again(listed_event, student):
    player = register_player(listed_event, student, "CHE2201", "Asha")
    withdraw(player)
    assert "You withdrew from Event chem" in refusal(register_player, listed_event, student, "CHE2201", "Asha")


def test_prefill_from_the_list_entry_with_the_users_email(listed_event, student):
    prefill = prefill_for(listed_event, student)
    assert (prefill.roll_number, prefill.display_name) == ("CHE2201", "Asha Sen")
    stranger = get_user_model().objects.create_user("zed", email="zed@example.com", first_name="Zed")
    assert prefill_for(listed_event, stranger).roll_number == ""
    assert prefill_for(listed_event, stranger).display_name == "Zed"


# --- checking in -----------------------------------------------------------------------------------


@pytest.fixture
def registered(listed_event, student):
    return register_player(listed_event, student, "CHE2201", "Asha")


def test_check_in_refused_while_the_organizers_keep_it_closed(registered):
    assert refusal(check_in, registered).startswith("Check-in is not open right now")
    registered.refresh_from_db()
    assert registered.status == Player.Status.REGISTERED


def test_check_in_while_open(registered):
    Event.objects.filter(pk=registered.event_id).update(checkin_open=True)
    player = check_in(registered)
    assert player.status == Player.Status.CHECKED_IN and player.checked_in_at is not None
    assert refusal(check_in, player) == "You are already checked in."


def test_withdrawn_player_cannot_check_in(registered):
    Event.objects.filter(pk=registered.event_id).update(checkin_open=True)
    withdraw(registered)
    assert refusal(check_in, registered) == "You cannot check in: you are withdrawn."


# --- withdrawing -----------------------------------------------------------------------------------


def test_withdraw_before_any_round(registered):
    player = withdraw(registered, reason="exam clash")
    assert player.status == Player.Status.WITHDRAWN
    entry = AuditEntry.objects.get(action="player.withdraw")
    assert entry.reason == "exam clash" and entry.changes["status"] == ["registered", "withdrawn"]
    assert refusal(withdraw, player) == "You cannot withdraw: you are withdrawn."


def test_withdraw_allowed_while_the_players_round_is_only_planned(listed_event, registered):
    seat_round(listed_event, [registered], table_size=4, status=Round.Status.PLANNED)
    assert withdraw(registered).status == Player.Status.WITHDRAWN


def test_withdraw_refused_once_the_players_first_round_started(listed_event, registered):
    seat_round(listed_event, [registered], table_size=4, status=Round.Status.RUNNING)
    message = refusal(withdraw, registered)
    assert message.startswith("Round 1 has started with you seated, so you can no longer withdraw.")
    registered.refresh_from_db()
    assert registered.status == Player.Status.REGISTERED


def test_a_started_round_without_the_player_does_not_block_withdrawing(listed_event, registered):
    others = make_players(listed_event, ["Ravi", "Meera"], prefix="x-")
    seat_round(listed_event, others, table_size=2, status=Round.Status.RUNNING)
    assert withdraw(registered).status == Player.Status.WITHDRAWN
