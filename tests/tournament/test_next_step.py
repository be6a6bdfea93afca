"""Where a student goes next: the step "My event" shows at its top and the home page shows per event."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.bracket_factories import finish_table
from tests.tournament.organizer_factories import (
    PASSWORD,
    make_event,
    make_organizer_of,
    make_players,
    make_user,
)
from tournament.models import Event, Game, Player, Round, Seat, Table
from tournament.services import next_step, rounds

pytestmark = pytest.mark.django_db


def seated_event(status=Event.Status.RUNNING, **fields):
    event = make_event(status=status, min_table_size=4, max_table_size=4, target_score=100, **fields)
    organizer = make_organizer_of(event)
    players = make_players(event, 8, status=Player.Status.CHECKED_IN)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1, source=rounds.CHECKED_IN),
                                       organizer)
    return event, organizer, players, round_


def step(event, player):
    return next_step.next_step(event, player.user)


def test_registration_open_and_not_registered_says_register():
    event = make_event(status=Event.Status.REGISTRATION)
    found = next_step.next_step(event, make_user())
    assert found.kind == next_step.REGISTER and found.url == reverse("register", args=[event.slug])


def test_registered_then_check_in_then_waiting_for_a_table():
    event = make_event(status=Event.Status.REGISTRATION)
    (player,) = make_players(event, 1)
    assert step(event, player).kind == next_step.REGISTERED
    event.checkin_open = True
    event.save()
    assert step(event, player).kind == next_step.CHECK_IN
    player.status = Player.Status.CHECKED_IN
    player.save()
    found = step(event, player)
    assert found.kind == next_step.WAIT_TABLE and "as soon as the round is seated" in found.detail


def test_seated_in_a_planned_round_then_the_table_is_ready_when_it_starts():
    event, organizer, players, round_ = seated_event()
    seat = Seat.objects.get(player=players[0])
    found = step(event, players[0])
    assert found.kind == next_step.SEATED
    assert f"Table {seat.table.number}, seat {seat.number + 1}" in found.detail
    rounds.start_round(round_, organizer)
    found = step(event, players[0])
    game = Game.objects.get(table=seat.table)
    assert found.kind == next_step.PLAY and found.title.startswith("Your table is ready")
    assert found.url == reverse("play_tournament_game", args=[game.pk]) and found.button == "Play now"


def test_games_over_then_out_of_a_later_round():
    event, organizer, players, round_ = seated_event()
    rounds.start_round(round_, organizer)
    seat = Seat.objects.get(player=players[0])
    finish_table(Game.objects.get(table=seat.table), actor=organizer)
    assert step(event, players[0]).kind == next_step.BETWEEN
    # round 2 is seated without this player, with another one
    later = Round.objects.create(event=event, number=2, seed=2)
    table = Table.objects.create(round=later, number=1)
    Seat.objects.create(table=table, number=0, player=players[1])
    found = step(event, players[0])
    assert found.kind == next_step.OUT and "round 2" in found.title
    through = step(event, players[1])
    assert through.kind == next_step.SEATED and through.title.startswith("You are through: round 2")


def test_withdrawn_and_finished_events():
    event, organizer, players, round_ = seated_event()
    players[0].status = Player.Status.WITHDRAWN
    players[0].save()
    assert step(event, players[0]).kind == next_step.WITHDRAWN
    event.status = Event.Status.FINISHED
    event.save()
    assert step(event, players[1]).kind == next_step.FINISHED


def test_home_page_says_where_to_go_next(client):
    open_event = make_event(status=Event.Status.REGISTRATION, name="Open cup",
                            registration_opens=timezone.now() - timezone.timedelta(days=1))
    event, organizer, players, round_ = seated_event(name="Ocho night")
    rounds.start_round(round_, organizer)
    anonymous = client.get(reverse("home")).content.decode()
    assert "Where to go next" not in anonymous
    client.login(username=players[0].user.username, password=PASSWORD)
    html = client.get(reverse("home")).content.decode()
    assert "Where to go next" in html
    game = Game.objects.get(table__seats__player=players[0])
    assert "Your table is ready" in html and reverse("play_tournament_game", args=[game.pk]) in html
    assert "Registration for Open cup is open." in html and reverse("register", args=[open_event.slug]) in html
    # someone not playing is pointed to the tables to watch
    client.login(username=make_user().username, password=PASSWORD)
    html = client.get(reverse("home")).content.decode()
    assert "Ocho night is under way." in html and reverse("event_detail", args=[event.slug]) in html
    assert "Watch the tables" in html


def test_home_page_check_in_step_links_to_my_event(client):
    event = make_event(status=Event.Status.REGISTRATION, checkin_open=True, name="Spring cup")
    (player,) = make_players(event, 1)
    client.login(username=player.user.username, password=PASSWORD)
    html = client.get(reverse("home")).content.decode()
    assert "Check-in is open" in html and f'href="{reverse("my_event", args=[event.slug])}"' in html


def test_my_event_shows_the_next_step(client):
    event, organizer, players, round_ = seated_event()
    client.login(username=players[0].user.username, password=PASSWORD)
    html = client.get(reverse("my_event", args=[event.slug])).content.decode()
    assert 'data-step="seated"' in html and 'data-live-url="/ws/events/' in html


def test_a_pending_claim_is_told_to_see_the_desk_not_to_check_in(db, django_user_model):
    event = Event.objects.create(name="Claims", slug="claims", status=Event.Status.REGISTRATION, checkin_open=True)
    user = django_user_model.objects.create_user("claimant", "claimant@example.org", "pw")
    player = Player.objects.create(event=event, user=user, roll_number="R1", display_name="Claimant",
                                   claim=Player.Claim.PENDING)
    step = next_step.next_step(event, user, player)
    assert step.kind == next_step.CLAIM and "check-in desk" in step.title
