"""The organizer's admin paths for places on the list, through Django's test client: free and reassign a
roll number, reinstate, confirm a claim, add a walk-in, edit a display name, and round one's preview
saying who was left out. Each refuses bad input with its reason, never a server error."""

import re

import pytest
from django.urls import reverse

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players, make_user
from tournament.models import AuditEntry, EligibilityEntry, Event, Player

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:tournament_player_changelist"


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def act(client, action, players, **data):
    return client.post(reverse(CHANGELIST), {"action": action, "_selected_action": [p.pk for p in players],
                                             **data}, follow=True)


def test_free_roll_number_asks_for_a_reason_then_frees_it(organizer_client, event):
    (player,) = make_players(event, 1)
    roll = player.roll_number
    page = text(act(organizer_client, "free_roll_number", [player]))
    assert "Free roll number: players" in page and "Also withdraw them from the event" in page
    page = text(act(organizer_client, "free_roll_number", [player], apply="1", reason=""))
    assert "This field is required" in page
    act(organizer_client, "free_roll_number", [player], apply="1", reason="Not theirs", withdraw="on")
    player.refresh_from_db()
    assert (player.roll_number, player.status) == ("", "withdrawn")
    entry = AuditEntry.objects.get(action="player.free_roll_number")
    assert (entry.actor, entry.reason, entry.target) == (organizer_client.user, "Not theirs",
                                                         f"Roll number {roll} freed from {player}")


def test_reassign_roll_number_to_an_account_by_email(organizer_client, event):
    (player,) = make_players(event, 1)
    roll = player.roll_number
    owner = make_user("owner", email="owner@ju.example")
    page = text(act(organizer_client, "reassign_roll_number", [player]))
    assert f"holds roll number <strong>{roll}</strong>" in page
    page = text(act(organizer_client, "reassign_roll_number", [player], apply="1", to="nobody@ju.example",
                    reason="x"))
    assert f"No account and no player of {event} is called nobody@ju.example." in page
    act(organizer_client, "reassign_roll_number", [player], apply="1", to="OWNER@ju.example",
        display_name="Owner O.", reason="ID checked at the desk")
    holder = Player.objects.get(user=owner)
    assert (holder.roll_number, holder.display_name, holder.claim) == (roll, "Owner O.", "confirmed")
    entry = AuditEntry.objects.get(action="player.reassign_roll_number")
    assert entry.actor == organizer_client.user and entry.reason == "ID checked at the desk"


def test_reassign_to_a_player_by_display_name_and_refusals(organizer_client, event):
    first, second = make_players(event, 2)
    page = text(act(organizer_client, "reassign_roll_number", [first, second]))
    assert "Choose exactly one player whose roll number to reassign." in page
    page = text(act(organizer_client, "reassign_roll_number", [first], apply="1", to=second.display_name,
                    reason="x"))
    assert f"{second} already holds roll number {second.roll_number}; free it first." in page
    Player.objects.filter(pk=second.pk).update(roll_number="")
    act(organizer_client, "reassign_roll_number", [first], apply="1", to=second.display_name.upper(), reason="swap")
    second.refresh_from_db()
    assert second.roll_number and Player.objects.get(pk=first.pk).roll_number == ""


def test_reinstate_and_confirm_claim_actions(organizer_client, event):
    (player,) = make_players(event, 1, status=Player.Status.WITHDRAWN)
    Player.objects.filter(pk=player.pk).update(claim=Player.Claim.PENDING)
    page = text(act(organizer_client, "reinstate", [player]))
    assert "Reinstate: players" in page
    act(organizer_client, "reinstate", [player], apply="1", reason="Back from the lab")
    page = text(act(organizer_client, "check_in", [player]))
    assert "check their ID and confirm the claim first" in page
    act(organizer_client, "confirm_claim", [player], apply="1", reason="ID seen")
    act(organizer_client, "check_in", [player])
    player.refresh_from_db()
    assert (player.status, player.claim) == ("checked_in", "confirmed")
    assert list(AuditEntry.objects.filter(event=event).order_by("created_at", "pk").values_list(
        "action", "reason")) == [("player.reinstate", "Back from the lab"), ("player.confirm_claim", "ID seen"),
                                 ("player.check_in", "")]


def test_walk_in_page(organizer_client, event):
    url = reverse("admin:tournament_player_walk_in")
    assert url in organizer_client.get(reverse(CHANGELIST)).content.decode()
    other = make_event()  # not this organizer's: not offered, and refused when posted
    page = organizer_client.get(url)
    assert page.status_code == 200 and f'value="{other.pk}"' not in page.content.decode()
    response = organizer_client.post(url, {"event": other.pk, "display_name": "Kabir", "reason": "desk"})
    assert "Select a valid choice" in text(response)
    response = organizer_client.post(url, {"event": event.pk, "display_name": "Kabir", "account": "ghost",
                                           "reason": "desk"})
    assert "No account has the username or e-mail ghost." in text(response)
    response = organizer_client.post(url, {"event": event.pk, "display_name": "Kabir", "check_in": "on",
                                           "reason": "came to the desk"}, follow=True)
    assert "Kabir joined" in text(response) and "is checked in" in text(response)
    player = Player.objects.get(event=event)
    assert (player.user, player.status) == (None, "checked_in")
    assert AuditEntry.objects.get(action="player.walk_in").actor == organizer_client.user
    response = organizer_client.post(url, {"event": event.pk, "display_name": "kabir", "reason": "desk"})
    assert 'already shows as &quot;kabir&quot;' in text(response)
    # the walk-in without an account shows in the list and on its change page
    assert organizer_client.get(reverse("admin:tournament_player_change", args=[player.pk])).status_code == 200
    assert "Kabir" in text(organizer_client.get(reverse(CHANGELIST)))


def test_walk_in_page_needs_the_player_permission(client, event):
    user = make_user("plain", is_staff=True)
    client.force_login(user)
    assert client.get(reverse("admin:tournament_player_walk_in")).status_code == 403


def test_change_form_refuses_a_display_name_taken_in_the_event(organizer_client, event):
    first, second = make_players(event, 2)
    url = reverse("admin:tournament_player_change", args=[second.pk])
    response = organizer_client.post(url, {"display_name": first.display_name.upper(), "seeding": ""})
    assert response.status_code == 200 and "already shows as" in text(response)
    response = organizer_client.post(url, {"display_name": "Second S.", "seeding": "", "roll_number": "HACK"})
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.display_name == "Second S." and second.roll_number != "HACK"  # roll numbers move by action


def test_first_round_preview_says_who_was_left_out(organizer_client, event):
    Event.objects.filter(pk=event.pk).update(eligibility=Event.Eligibility.LIST)
    EligibilityEntry.objects.create(event=event, roll_number="X1", name="Meera", email="", department="ChE",
                                    programme="UG", year=1)
    make_players(event, 4)
    Player.objects.create(event=event, user=make_user(), display_name="Meera", roll_number="X1",
                          claim=Player.Claim.PENDING)
    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    organizer_client.post(url, {"seed": "3", "source": "registered", "preview": "Preview"})
    response = organizer_client.get(url)  # the preview is a draft on the server
    page = text(response)
    assert "Left out, their claim of a roll number not yet confirmed" in page and "Meera (X1)" in page
    assert len(response.context["plan"].player_ids) == 4


def test_organizer_of_another_event_cannot_act_on_these_players(client, event):
    (player,) = make_players(event, 1)
    stranger = make_organizer_of(make_event())
    client.force_login(stranger)
    act(client, "free_roll_number", [player], apply="1", reason="mine now")
    player.refresh_from_db()
    assert player.roll_number and not AuditEntry.objects.exists()


def test_public_pages_show_a_walk_in_without_an_account(client, event):
    from tests.tournament.standings_data import record_games, seat_round
    from tournament.services.list_places import add_walk_in

    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    walk_in = add_walk_in(event, make_user(), "desk", "Kabir Walk-in", check_in=True)
    players = [walk_in, *make_players(event, 3)]
    _round, tables = seat_round(event, players)
    record_games(tables, [(0, [0, 10, 15, 5])], winner=0)
    for url in (reverse("event_detail", args=[event.slug]), reverse("leaderboard", args=[event.slug]),
                reverse("player_detail", args=[event.slug, walk_in.pk]),
                reverse("table_detail", args=[event.slug, tables[0].table.pk])):
        response = client.get(url)
        assert response.status_code == 200 and "Kabir Walk-in" in response.content.decode(), url
