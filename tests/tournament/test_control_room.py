"""The control room of an event: the right next action at every step, each action working through its
service with an audit entry, and only the event's organizers (and superusers) let in."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.bracket_factories import finish_table, played_first_round, stage_game, stage_tables
from tests.tournament.organizer_factories import (
    PASSWORD,
    bulk_players,
    make_event,
    make_organizer_of,
    make_players,
    make_user,
    seat_first_round_in_admin,
)
from tournament.models import AuditEntry, EligibilityEntry, Event, Player, Round
from tournament.services import advancing, next_round
from tournament.services.next_round import NextRoundOptions
from tournament.services.rounds import start_round

pytestmark = pytest.mark.django_db


def room(event):
    return reverse("admin:tournament_event_control_room", args=[event.pk])


def state_of(html: str, key: str) -> str:
    start = html.index(f'id="step-{key}"')
    return html[start:start + 120].split('data-state="', 1)[1].split('"', 1)[0]


@pytest.fixture
def event():
    return make_event(status=Event.Status.DRAFT, eligibility=Event.Eligibility.LIST, min_table_size=3,
                      max_table_size=4, target_score=100)


def test_the_steps_follow_the_event_from_its_list_to_round_one_started(organizer_client, event):
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "list") == "now" and "Upload the eligibility list" in page
    assert reverse("admin:tournament_event_eligibility_upload", args=[event.pk]) in page

    EligibilityEntry.objects.create(event=event, roll_number="R1", name="A", department="ChE", programme="UG")
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "list") == "done" and state_of(page, "registration") == "now"
    assert 'value="open_registration"' in page

    response = organizer_client.post(room(event), {"action": "open_registration"}, follow=True)
    assert "Registration is open." in response.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION
    entry = AuditEntry.objects.get(event=event, action="event.open_registration")
    assert entry.actor == organizer_client.user and entry.changes == {"status": ["draft", "registration"]}

    players = make_players(event, 6)
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "checkin") == "now" and 'value="open_checkin"' in page
    organizer_client.post(room(event), {"action": "open_checkin"})
    event.refresh_from_db()
    assert event.checkin_open and AuditEntry.objects.filter(event=event, action="event.open_checkin").exists()
    page = organizer_client.get(room(event)).content.decode()
    assert "Check students in" in page and reverse("admin:tournament_event_checkin_desk", args=[event.pk]) in page

    Player.objects.filter(pk__in=[p.pk for p in players]).update(status=Player.Status.CHECKED_IN)
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "checkin") == "done" and state_of(page, "seated") == "now"
    assert "Seat round 1" in page and reverse("admin:tournament_event_first_round", args=[event.pk]) in page

    seat_first_round_in_admin(organizer_client, event, source="checked_in")
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "seated") == "done" and state_of(page, "started") == "now"
    assert 'value="start_round_one"' in page

    organizer_client.post(room(event), {"action": "start_round_one"})
    round_ = Round.objects.get(event=event, number=1)
    assert round_.status == Round.Status.RUNNING
    assert AuditEntry.objects.filter(event=event, action="round.start").exists()
    page = organizer_client.get(room(event)).content.decode()
    assert state_of(page, "started") == "done" and state_of(page, "finished") == "now"
    assert "Follow round 1" in page


def test_an_action_that_does_not_apply_says_why_and_changes_nothing(organizer_client, event):
    response = organizer_client.post(room(event), {"action": "start_round_one"}, follow=True)
    assert response.status_code == 200 and "Round 1 is not seated yet" in response.content.decode()
    response = organizer_client.post(room(event), {"action": "open_checkin"}, follow=True)
    assert "check-in cannot change" in response.content.decode()
    for bad in ({"action": "start_stage", "arg": "x"}, {"action": "start_stage", "arg": "99"}, {"action": "nope"},
                {"action": "start_stage", "arg": "²"}, {"action": "start_stage", "arg": "9" * 30},
                {}, {"action": "finish_event"}):
        assert organizer_client.post(room(event), bad, follow=True).status_code == 200
    organizer_client.post(room(event), {"action": "open_registration"})
    response = organizer_client.post(room(event), {"action": "open_registration"}, follow=True)
    assert "not a draft" in response.content.decode()
    assert AuditEntry.objects.filter(event=event, action="event.open_registration").count() == 1


def test_finish_event_once_the_champion_is_known(organizer_client, event):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    organizer_client.post(room(event), {"action": "finish_event"})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert AuditEntry.objects.get(event=event, action="event.finish").changes == {"status": ["running", "finished"]}


def test_only_the_events_organizers_and_superusers_get_in(client, event):
    other = make_event()
    stranger = make_organizer_of(other)
    student = make_user()
    client.login(username=student.username, password=PASSWORD)
    assert client.get(room(event)).status_code == 302  # the admin's login page
    client.login(username=stranger.username, password=PASSWORD)
    assert client.get(room(event)).status_code == 404
    assert client.post(room(event), {"action": "open_registration"}).status_code == 404
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT
    assert client.get(reverse("admin:tournament_event_control_room", args=[999999])).status_code == 404
    boss = make_user(is_staff=True, is_superuser=True)
    client.login(username=boss.username, password=PASSWORD)
    assert client.get(room(event)).status_code == 200


def test_the_event_pages_link_the_control_room(organizer_client, client, event):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.REGISTRATION)
    admin_page = organizer_client.get(reverse("admin:tournament_event_change", args=[event.pk])).content.decode()
    assert room(event) in admin_page
    assert room(event) in organizer_client.get(reverse("admin:tournament_event_changelist")).content.decode()
    public = reverse("event_detail", args=[event.slug])
    assert room(event) in organizer_client.get(public).content.decode()
    student = make_user()
    client.login(username=student.username, password=PASSWORD)
    assert room(event) not in client.get(public).content.decode()
    other_organizer = make_organizer_of(make_event())
    client.login(username=other_organizer.username, password=PASSWORD)
    assert room(event) not in client.get(public).content.decode()


@pytest.mark.usefixtures("live_settings")
def test_after_round_one_the_room_plans_starts_the_stages_names_the_champion_and_finishes(client):
    event, organizer, _ = played_first_round(16)
    client.login(username=organizer.username, password=PASSWORD)
    page = client.get(room(event)).content.decode()
    assert state_of(page, "finished") == "done" and state_of(page, "next_round") == "now"
    assert reverse("admin:tournament_event_plan_next_round", args=[event.pk]) in page
    assert "Played round 1</dt><dd>16<" in page and "No-shows</dt><dd>0<" in page

    options = NextRoundOptions(field=16, advance=[1], draw_seed=3)
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    page = client.get(room(event)).content.decode()
    assert state_of(page, "stages") == "now" and 'name="arg" value="1"' in page and "Start stage 1" in page
    assert "Stage 1</dt><dd>0 of 4 tables finished" in page
    client.post(room(event), {"action": "start_stage", "arg": "1"})
    assert AuditEntry.objects.filter(event=event, action="round.start", target="Round 2 started").exists()
    page = client.get(room(event)).content.decode()
    assert "Follow stage 1" in page and reverse("admin:tournament_event_bracket", args=[event.pk, round_two.pk]) in page

    for number, members in enumerate(stage_tables(round_two, 1), start=1):
        finish_table(stage_game(round_two, 1, number), members, organizer)
    advancing.advance_bracket(round_two)
    page = client.get(room(event)).content.decode()
    assert 'name="arg" value="2"' in page and "Start stage 2" in page
    client.post(room(event), {"action": "start_stage", "arg": "2"})
    final = stage_tables(round_two, 2)[0]
    finish_table(stage_game(round_two, 2, 1), final, organizer)
    advancing.advance_bracket(round_two)
    champion = Player.objects.get(pk=final[0]).display_name
    page = client.get(room(event)).content.decode()
    assert state_of(page, "stages") == "done" and state_of(page, "champion") == "now"
    assert f"Champion</dt><dd>{champion}<" in page and 'value="finish_event"' in page
    client.post(room(event), {"action": "finish_event"})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert "Every step is done." in client.get(room(event)).content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_room_reads_the_same_queries_whatever_the_number_of_players(organizer_client, event):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING, eligibility=Event.Eligibility.OPEN)
    bulk_players(event, 12)
    seat_first_round_in_admin(organizer_client, event, source="checked_in")
    round_ = Round.objects.get(event=event, number=1)
    start_round(round_, organizer_client.user)
    few = _queries(organizer_client, room(event))
    bulk_players(event, 300, status=Player.Status.REGISTERED)
    assert _queries(organizer_client, room(event)) == few
    page = organizer_client.get(room(event)).content.decode()
    assert reverse("admin:tournament_round_live", args=[round_.pk]) in page  # "Follow round 1": the live view
