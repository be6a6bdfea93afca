"""Organizer actions on places on the list: free or reassign a roll number, reinstate, walk-ins, claims
(each a service with a required reason and an audit entry with who and why), and unconfirmed claims left
out of round one's seating."""

import pytest
from django.db import IntegrityError, transaction

from tests.tournament.organizer_factories import make_event, make_players, make_user, make_verified_user
from tournament.models import AuditEntry, EligibilityEntry, Event, Player
from tournament.services import rounds
from tournament.services.list_places import add_walk_in, find_account, free_roll_number, reassign_roll_number
from tournament.services.players import PlayerActionError, check_in, confirm_claim, reinstate, withdraw
from tournament.services.registration import RegistrationRefused, register_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed():
    event = make_event(status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST)
    for roll, name, email in [("CHE01", "Asha Sen", "asha@ju.example"), ("CHE02", "Ravi Das", "ravi@ju.example"),
                              ("CHE03", "Meera Iyer", "")]:
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, email=email,
                                        department="ChE", programme="UG", year=1)
    return event


@pytest.fixture
def organizer():
    return make_user("olga")


def test_freeing_a_taken_roll_number_lets_its_student_register(listed, organizer):
    EligibilityEntry.objects.filter(roll_number="CHE01").update(email="")  # a claim anyone could make
    impostor = register_player(listed, make_user("mallory"), "CHE01", "Mallory")
    asha = make_verified_user("asha", email="asha@ju.example")
    with pytest.raises(RegistrationRefused, match="already registered"):
        register_player(listed, asha, "CHE01", "Asha")
    with pytest.raises(PlayerActionError, match="Give a reason"):
        free_roll_number(impostor, organizer, " ")
    free_roll_number(impostor, organizer, "Mallory is not CHE01: ID checked", withdraw=True)
    impostor.refresh_from_db()
    assert (impostor.roll_number, impostor.status, impostor.claim) == ("", "withdrawn", "")
    entry = AuditEntry.objects.get(action="player.free_roll_number")
    assert (entry.actor, entry.reason) == (organizer, "Mallory is not CHE01: ID checked")
    assert entry.changes == {"roll_number": ["CHE01", ""], "status": ["registered", "withdrawn"]}
    assert register_player(listed, asha, "CHE01", "Asha").roll_number == "CHE01"
    with pytest.raises(PlayerActionError, match="holds no roll number"):
        free_roll_number(impostor, organizer, "again")


def test_reassigning_to_an_account_not_yet_registered_registers_it(listed, organizer):
    EligibilityEntry.objects.filter(roll_number="CHE03").update(email="")
    wrong = register_player(listed, make_user("mallory"), "CHE03", "Mallory")
    meera = make_user("meera", email="meera@ju.example")
    holder = reassign_roll_number(wrong, organizer, "Meera showed her ID", to_user=meera)
    assert (holder.user, holder.roll_number, holder.display_name, holder.claim) == (
        meera, "CHE03", "Meera Iyer", "confirmed")
    wrong.refresh_from_db()
    assert (wrong.roll_number, wrong.status) == ("", "registered")
    entry = AuditEntry.objects.get(action="player.reassign_roll_number")
    assert entry.actor == organizer and entry.reason == "Meera showed her ID"
    assert entry.changes == {"roll_number": "CHE03", "from_player": wrong.pk, "registered": True,
                             "to_player": holder.pk}


def test_reassigning_to_a_player_of_the_event(listed, organizer):
    first, second = make_players(listed, 2)
    second.roll_number = ""
    second.save()
    roll = first.roll_number
    holder = reassign_roll_number(first, organizer, "swapped at the desk", to_player=second, withdraw=True)
    first.refresh_from_db()
    assert (holder.pk, holder.roll_number) == (second.pk, roll)
    assert (first.roll_number, first.status) == ("", "withdrawn")
    assert AuditEntry.objects.get(action="player.reassign_roll_number").changes["from_status"] == [
        "registered", "withdrawn"]


def test_reassigning_refuses_bad_targets(listed, organizer):
    first, second = make_players(listed, 2)
    other_event_player = make_players(make_event(), 1)[0]
    with pytest.raises(PlayerActionError, match="already holds roll number"):
        reassign_roll_number(first, organizer, "x", to_player=second)
    with pytest.raises(PlayerActionError, match="is not a player of"):
        reassign_roll_number(first, organizer, "x", to_player=other_event_player)
    with pytest.raises(PlayerActionError, match="Choose one account or one player"):
        reassign_roll_number(first, organizer, "x")
    # an account whose list name is taken in the event: the organizer gives another name
    Player.objects.filter(pk=second.pk).update(display_name="Rollholder")
    taker = make_user("taker")
    with pytest.raises(PlayerActionError, match='already shows as "rollholder"'):
        reassign_roll_number(first, organizer, "x", to_user=taker, display_name="rollholder")
    first.refresh_from_db()
    assert first.roll_number  # nothing changed
    assert not AuditEntry.objects.exists()


def test_find_account_by_username_or_email():
    user = make_user("asha", email="Asha@JU.example")
    assert find_account("ASHA") == user and find_account("asha@ju.example") == user
    assert find_account("nobody") is None and find_account("  ") is None
    make_user("asha2", email="asha@ju.example")
    with pytest.raises(PlayerActionError, match="Several accounts match"):
        find_account("asha@ju.example")


def test_reinstating_a_withdrawn_player(listed, organizer):
    (player,) = make_players(listed, 1, status=Player.Status.CHECKED_IN)
    withdraw(player, organizer, "left")
    with pytest.raises(PlayerActionError, match="Give a reason"):
        reinstate(player, organizer, "")
    reinstate(player, organizer, "came back after the lab")
    player.refresh_from_db()
    assert (player.status, player.checked_in_at) == ("registered", None)
    entry = AuditEntry.objects.get(action="player.reinstate")
    assert (entry.actor, entry.reason, entry.changes) == (organizer, "came back after the lab",
                                                          {"status": ["withdrawn", "registered"]})
    with pytest.raises(PlayerActionError, match="nothing to reinstate"):
        reinstate(player, organizer, "again")
    Event.objects.filter(pk=listed.pk).update(status=Event.Status.FINISHED)
    withdraw(player, organizer, "left")
    with pytest.raises(PlayerActionError, match="is finished"):
        reinstate(player, organizer, "too late")


def test_walk_in_without_an_account_is_checked_in_and_seated(listed, organizer):
    player = add_walk_in(listed, organizer, "came to the desk", "  Kabir   Khan ", check_in=True)
    assert (player.user, player.display_name, player.status, player.roll_number) == (
        None, "Kabir Khan", "checked_in", "")
    assert player.checked_in_at is not None
    entry = AuditEntry.objects.get(action="player.walk_in")
    assert (entry.actor, entry.reason, entry.changes["account"]) == (organizer, "came to the desk", None)
    # a second walk-in without an account is fine (no account to be unique on)
    add_walk_in(listed, organizer, "desk", "Sayani", check_in=True)
    make_players(listed, 1, status=Player.Status.CHECKED_IN)
    seated = rounds.seating_candidates(listed, rounds.CHECKED_IN)
    assert player in seated and len(seated) == 3


def test_walk_in_with_an_account_and_a_roll_number_from_the_list(listed, organizer):
    ravi = make_user("ravi")
    player = add_walk_in(listed, organizer, "late", "Ravi", roll_number="che02", user=ravi)
    assert (player.user, player.roll_number, player.claim, player.status) == (ravi, "CHE02", "confirmed",
                                                                             "registered")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"display_name": " "}, "Enter the name to show"),
    ({"reason": ""}, "Give a reason"),
    ({"roll_number": "MEC99"}, "Roll number MEC99 is not on the list"),
    ({"roll_number": "CHE01"}, "Roll number CHE01 is held by Taken"),
    ({"display_name": "TAKEN"}, 'already shows as "TAKEN"'),
    ({"account": True}, "is already registered as Taken"),
])
def test_walk_in_refusals(listed, organizer, kwargs, message):
    holder = make_verified_user("holder")
    Player.objects.create(event=listed, user=holder, display_name="Taken", roll_number="CHE01")
    args = {"reason": "desk", "display_name": "Newcomer"}
    args.update({k: v for k, v in kwargs.items() if k != "account"})
    user = holder if kwargs.get("account") else None
    with pytest.raises(PlayerActionError, match=message):
        add_walk_in(listed, organizer, args.pop("reason"), args.pop("display_name"), user=user, **args)
    assert Player.objects.filter(event=listed).count() == 1


def test_a_claim_is_confirmed_by_an_organizer_then_checked_in_and_seated(listed, organizer):
    claimant = register_player(listed, make_user("meera"), "CHE03", "Meera")
    make_players(listed, 3)
    assert claimant not in rounds.seating_candidates(listed, rounds.REGISTERED)
    assert rounds.unconfirmed_claims(listed, rounds.REGISTERED) == [claimant]
    with pytest.raises(PlayerActionError, match="confirm the claim first"):
        check_in(claimant, organizer)
    with pytest.raises(PlayerActionError, match="Give a reason"):
        confirm_claim(claimant, organizer, "")
    confirm_claim(claimant, organizer, "college ID seen")
    entry = AuditEntry.objects.get(action="player.confirm_claim")
    assert (entry.actor, entry.reason, entry.changes) == (organizer, "college ID seen",
                                                          {"claim": ["pending", "confirmed"]})
    check_in(claimant, organizer)
    assert claimant in rounds.seating_candidates(listed, rounds.REGISTERED)
    assert rounds.unconfirmed_claims(listed, rounds.REGISTERED) == []
    with pytest.raises(PlayerActionError, match="no claim waiting"):
        confirm_claim(claimant, organizer, "again")


def test_round_one_refuses_to_seat_an_unconfirmed_claim(listed, organizer):
    make_players(listed, 3)
    claimant = register_player(listed, make_user("meera"), "CHE03", "Meera")
    plan = rounds.plan_first_round(listed, seed=5, source=rounds.REGISTERED)
    assert claimant.pk not in plan.player_ids and len(plan.player_ids) == 3
    tampered = rounds.SeatingPlan(plan.seed, plan.source, False, False, [plan.tables[0] + [claimant.pk]])
    with pytest.raises(rounds.RoundError, match="changed since the preview"):
        rounds.create_first_round(listed, tampered, organizer)


def test_the_database_keeps_display_names_unique_per_event_ignoring_case(listed):
    Player.objects.create(event=listed, display_name="Asha")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=listed, display_name="ASHA")
    Player.objects.create(event=make_event(), display_name="Asha")


def test_a_walk_in_outside_the_policy_is_refused_with_the_reason(listed, organizer):
    """The desk is held to the event's policy as registration is: a postgraduate's roll number is not
    admitted to an undergraduate event by the back door."""
    Event.objects.filter(pk=listed.pk).update(eligibility_policy=[{"column": "programme", "one_of": ["UG"]}])
    listed.refresh_from_db()
    EligibilityEntry.objects.create(event=listed, roll_number="PG01", name="Dev Nag", email="dev@ju.example",
                                    department="ChE", programme="PG", year=1)
    with pytest.raises(PlayerActionError, match=r"Dev Nag \(PG01\) is outside the eligibility policy of .*: "
                                                r"programme is PG \(must be UG\)\. Change the policy"):
        add_walk_in(listed, organizer, "at the desk", "Dev Nag", roll_number="pg01")
    assert not Player.objects.filter(event=listed).exists()
    assert add_walk_in(listed, organizer, "at the desk", "Meera", roll_number="CHE03").roll_number == "CHE03"


def test_the_lists_name_goes_with_the_roll_number_when_it_is_freed_or_reassigned(listed, organizer):
    """Found walking through the demo: an impostor who registered without a display name shows the list's
    name; taking the roll number from them left that name with them, so the student it belongs to could
    neither register with it nor be given it (the name was "taken")."""
    EligibilityEntry.objects.filter(roll_number__in=["CHE01", "CHE03"]).update(email="")
    impostor = register_player(listed, make_user("mallory", first_name="Mallory", last_name="Grey"), "CHE01")
    assert impostor.display_name == "Asha Sen"
    free_roll_number(impostor, organizer, "not Asha: ID checked", withdraw=True)
    impostor.refresh_from_db()
    assert impostor.display_name == "Mallory Grey"
    assert AuditEntry.objects.get(action="player.free_roll_number").changes["display_name"] == [
        "Asha Sen", "Mallory Grey"]
    asha = register_player(listed, make_verified_user("asha", email="asha@ju.example"), "CHE01")
    assert (asha.display_name, asha.roll_number) == ("Asha Sen", "CHE01")

    wrong = register_player(listed, make_user("trudy"), "CHE03")
    assert wrong.display_name == "Meera Iyer"
    holder = reassign_roll_number(wrong, organizer, "Meera showed her ID", to_user=make_user("meera"))
    wrong.refresh_from_db()
    assert (holder.display_name, wrong.display_name) == ("Meera Iyer", "trudy")
    entry = AuditEntry.objects.get(action="player.reassign_roll_number")
    assert entry.changes["from_display_name"] == ["Meera Iyer", "trudy"]

    # a player who chose a name of their own keeps it
    bob = register_player(listed, make_verified_user("ravi", email="ravi@ju.example"), "CHE02", "Ravi D.")
    free_roll_number(bob, organizer, "test")
    bob.refresh_from_db()
    assert bob.display_name == "Ravi D."
