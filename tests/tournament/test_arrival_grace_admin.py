"""The organizer sets the arrival countdown of an event's tables in the admin; every live table of its
rounds opens with it (the rule: docs/rules.md, "Tournament tables: arrival and the turn clock")."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournament.organizer_factories import make_players
from tournament.models import Event
from tournament.services import rounds
from tournament.services.live_tables import start_live_games

pytestmark = pytest.mark.django_db


def event_data(event: Event, **changes) -> dict:
    data = {"name": event.name, "slug": event.slug, "status": "running", "rules_preset": "uno-official",
            "rules_overrides": "{}", "target_score": "100", "min_table_size": 3, "max_table_size": 4,
            "turn_seconds": 30, "missed_turns_before_bot": 3, "arrival_grace_seconds": 300,
            "eligibility": "open"}
    data.update(changes)
    return data


def test_the_event_form_has_the_arrival_countdown_and_its_tables_use_it(organizer_client, event):
    url = reverse("admin:tournament_event_change", args=[event.pk])
    form = organizer_client.get(url).content.decode()
    assert 'name="arrival_grace_seconds"' in form and 'value="300"' in form
    assert "turn clock starts when they first open their table" in form
    response = organizer_client.post(url, event_data(event, arrival_grace_seconds=90,
                                                     organizers=[organizer_client.user.pk]))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.arrival_grace_seconds == 90
    make_players(event, 8)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), organizer_client.user)
    rounds.start_round(round_, organizer_client.user)
    tables = start_live_games(round_)
    assert tables
    for live in tables:
        left = live.arrival_until - timezone.now()
        assert timedelta(seconds=80) < left <= timedelta(seconds=90)


def test_no_countdown_and_bad_values(organizer_client, event):
    url = reverse("admin:tournament_event_change", args=[event.pk])
    bad = organizer_client.post(url, event_data(event, arrival_grace_seconds="-5",
                                                organizers=[organizer_client.user.pk]))
    assert bad.status_code == 200 and "greater than or equal to 0" in bad.content.decode()
    organizer_client.post(url, event_data(event, arrival_grace_seconds=0, organizers=[organizer_client.user.pk]))
    event.refresh_from_db()
    assert event.arrival_grace_seconds == 0
    make_players(event, 8)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), None)
    rounds.start_round(round_, None)
    assert all(live.arrival_until is None for live in start_live_games(round_))


def test_without_a_turn_timer_there_is_no_countdown(event):
    event.turn_seconds = 0
    event.arrival_grace_seconds = 300
    event.save()
    make_players(event, 8)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), None)
    rounds.start_round(round_, None)
    assert all(live.arrival_until is None for live in start_live_games(round_))
