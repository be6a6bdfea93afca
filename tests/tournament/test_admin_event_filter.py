"""The admin's per-event lists show the chosen event's rows only, also when it has none and one other
event has some (Django's related-only filter hides itself with a single choice and dropped the choice)."""

import pytest

from tests.tournament.organizer_factories import PASSWORD, make_event, make_organizer_of, make_players
from tournament.models import EligibilityEntry, Round
from tournament.services import audit

pytestmark = pytest.mark.django_db

LISTS = ["round", "player", "eligibilityentry", "auditentry"]


@pytest.fixture
def two_events(client):
    busy, empty = make_event(name="Busy event"), make_event(name="Empty event")
    organizer = make_organizer_of(busy)
    empty.organizers.add(organizer)
    Round.objects.create(event=busy, number=1, seed=1)
    make_players(busy, 1)
    EligibilityEntry.objects.create(event=busy, roll_number="BUSY001", name="Busy Student",
                                    email="busy@example.org", department="Maths", programme="UG", year=1)
    audit.record(busy, organizer, "event.busy_marker", "busy target")
    client.login(username=organizer.username, password=PASSWORD)
    return client, busy, empty


@pytest.mark.parametrize("model", LISTS)
def test_choosing_an_event_without_rows_shows_no_rows(two_events, model):
    client, busy, empty = two_events
    url = f"/admin/tournament/{model}/"
    response = client.get(url, {"event__id__exact": empty.pk})
    assert response.status_code == 200
    changelist = response.context["cl"]
    assert changelist.result_count == 0, f"{model}: another event's rows are listed"
    assert list(changelist.result_list) == []
    # The chosen event stays visible as the filter's selected choice.
    assert "Empty event" in response.content.decode()
    busy_rows = client.get(url, {"event__id__exact": busy.pk}).context["cl"]
    assert busy_rows.result_count >= 1
    assert all(getattr(row, "event_id", None) == busy.pk for row in busy_rows.result_list)


def test_an_event_of_someone_else_or_nonsense_never_shows_rows_or_fails(two_events):
    client, busy, _ = two_events
    stranger = make_event(name="Stranger event")
    for model in LISTS:
        response = client.get(f"/admin/tournament/{model}/", {"event__id__exact": stranger.pk})
        assert response.status_code == 200 and response.context["cl"].result_count == 0
        assert "Stranger event" not in response.content.decode()
        nonsense = client.get(f"/admin/tournament/{model}/", {"event__id__exact": "abc"})
        assert nonsense.status_code in (200, 302)
