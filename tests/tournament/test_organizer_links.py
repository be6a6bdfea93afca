"""Found walking through the demo as an organizer: the pages of an event link to each other, and the list
shows which entries the event's policy leaves out."""

import pytest
from django.urls import reverse

from tournament.models import EligibilityEntry, Event

pytestmark = pytest.mark.django_db


def test_the_event_page_links_to_its_players_and_to_planning_the_next_round(organizer_client, event):
    page = organizer_client.get(reverse("admin:tournament_event_change", args=[event.pk])).content.decode()
    players = reverse("admin:tournament_player_changelist") + f"?event__id__exact={event.pk}"
    assert f'<a href="{players}">Players</a>' in page
    assert f'<a href="{reverse("admin:tournament_event_plan_next_round", args=[event.pk])}">Plan next round</a>' in page


def test_the_list_marks_entries_outside_the_policy_and_the_upload_page_links_to_it(organizer_client, event):
    Event.objects.filter(pk=event.pk).update(eligibility="list", eligibility_policy=[
        {"column": "programme", "one_of": ["UG"]}, {"column": "department", "one_of": ["Chemical Engineering"]}])
    for roll, programme, department in (("R1", "UG", "Chemical Engineering"), ("R2", "PG", "Chemical Engineering"),
                                        ("R3", "UG", "Mechanical Engineering")):
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=f"Student {roll}", email=f"{roll}@ju.in",
                                        department=department, programme=programme, year=1)
    changelist = reverse("admin:tournament_eligibilityentry_changelist") + f"?event__id__exact={event.pk}"
    page = organizer_client.get(changelist).content.decode()
    assert page.count("may register") == 1
    assert '<span class="outside-policy">Outside: programme is PG (must be UG)</span>' in page
    assert ('<span class="outside-policy">Outside: department is Mechanical Engineering '
            "(must be Chemical Engineering)</span>") in page
    upload = organizer_client.get(reverse("admin:tournament_event_eligibility_upload", args=[event.pk]))
    assert f'<a id="list-link" href="{changelist}">3 entries</a>' in upload.content.decode()


def test_the_event_list_links_each_event_to_its_players(organizer_client, event):
    page = organizer_client.get(reverse("admin:tournament_event_changelist")).content.decode()
    players = reverse("admin:tournament_player_changelist") + f"?event__id__exact={event.pk}"
    assert f'<a href="{players}">Players</a>' in page
