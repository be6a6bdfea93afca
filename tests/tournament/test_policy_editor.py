"""The eligibility policy editor on the event form: the list's own columns and values offered, rows turned
into the policy's JSON, every bad input a clear message (never a server error)."""

import re

import pytest
from django.urls import reverse

from tests.tournament.test_eligibility_admin import policy_rows
from tournament.models import EligibilityEntry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(event):
    for roll, programme, department, hostel in (("R1", "UG", "Chemical Engineering", "H4"),
                                                ("R2", "UG", "Chemical Engineering", "H4"),
                                                ("R3", "PG", "Chemical Engineering", "H1"),
                                                ("R4", "UG", "Mechanical Engineering", "")):
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=f"Student {roll}",
                                        email=f"{roll}@ju.in", department=department, programme=programme,
                                        year=2, extra={"Hostel": hostel} if hostel else {})
    return event


def form_data(event, organizer_client, **rows):
    return {"name": event.name, "slug": event.slug, "status": "draft", "rules_preset": "uno-official",
            "rules_overrides": "{}", "target_score": "", "min_table_size": 3, "max_table_size": 4,
            "turn_seconds": 30, "missed_turns_before_bot": 3, "arrival_grace_seconds": 300, "eligibility": "list",
            "organizers": [organizer_client.user.pk], **rows}


def change_url(event):
    return reverse("admin:tournament_event_change", args=[event.pk])


def test_the_editor_offers_the_lists_columns_and_the_values_with_counts(organizer_client, listed):
    Event.objects.filter(pk=listed.pk).update(eligibility_policy=[{"column": "hostel", "not_one_of": ["H1"]}])
    page = organizer_client.get(change_url(listed)).content.decode()
    first_column = re.search(r'<select name="eligibility_policy-0-column"[^>]*>(.*?)</select>', page).group(1)
    assert re.findall(r'<option value="([^"]*)"', first_column) == ["", "programme", "department", "year", "hostel"]
    assert '<option value="hostel" selected>' in first_column, "the stored condition is shown as a row"
    assert '<option value="not_one_of" selected>' in page and 'name="eligibility_policy-0-values" value="H1"' in page
    assert 'name="eligibility_policy-rows" value="3"' in page, "two empty rows to add conditions"
    assert "<b>programme</b>: UG (3) · PG (1)" in page
    assert "<b>department</b>: Chemical Engineering (3) · Mechanical Engineering (1)" in page
    assert "<b>hostel</b>: H4 (2) · H1 (1)" in page


def test_an_event_without_a_list_says_where_its_columns_come_from(organizer_client, event):
    page = organizer_client.get(change_url(event)).content.decode()
    assert "No eligibility list yet" in page and 'name="eligibility_policy-0-column"' in page


def test_rows_become_the_policy_and_remove_drops_one(organizer_client, listed):
    rows = policy_rows({"column": "programme", "kind": "one_of", "values": "UG, ug ,"},
                       {"column": "department", "kind": "one_of", "values": "Chemical Engineering"},
                       {"column": "hostel", "kind": "not_one_of", "values": "H1"},
                       {"column": "year", "kind": "range", "low": "1", "high": "4", "remove": "1"},
                       {"column": "", "kind": "one_of", "values": ""})
    response = organizer_client.post(change_url(listed), form_data(listed, organizer_client, **rows))
    assert response.status_code == 302
    listed.refresh_from_db()
    assert listed.eligibility_policy == [{"column": "programme", "one_of": ["UG"]},
                                         {"column": "department", "one_of": ["Chemical Engineering"]},
                                         {"column": "hostel", "not_one_of": ["H1"]}]


@pytest.mark.parametrize(("row", "message"), [
    ({"column": "", "kind": "one_of", "values": "UG"}, "Condition 1: choose the column it is about."),
    ({"column": "programme", "kind": "one_of", "values": " , "},
     "Condition 1 (programme): give the values, separated by commas (e.g. UG)."),
    ({"column": "year", "kind": "range"}, "Condition 1 (year): give From, To or both."),
    ({"column": "year", "kind": "range", "low": "two"}, "Condition 1 (year): From must be a whole number, not “two”."),
    ({"column": "year", "kind": "range", "values": "1"}, "a number range takes From and To, not values"),
    ({"column": "year", "kind": "one_of", "values": "1", "high": "3"}, "From and To are for"),
    ({"column": "year", "kind": "between", "values": "1"}, "choose what kind of condition it is"),
    ({"column": "x" * 300, "kind": "one_of", "values": "1"}, "longer than 100 characters"),
    ({"column": "programme", "kind": "one_of", "values": ",".join(f"v{n}" for n in range(300))},
     "has more than 200 values"),
])
def test_bad_rows_are_named_never_a_server_error(organizer_client, listed, row, message):
    response = organizer_client.post(change_url(listed), form_data(listed, organizer_client, **policy_rows(row)))
    assert response.status_code == 200
    page = response.content.decode()
    assert message.replace("“", "&ldquo;").replace("”", "&rdquo;") in page or message in page
    assert 'class="errorlist' in page


@pytest.mark.parametrize("count", ["", "-5", "lots", "999999"])
def test_a_tampered_row_count_is_harmless(organizer_client, listed, count):
    data = form_data(listed, organizer_client, **policy_rows({"column": "programme", "kind": "one_of",
                                                              "values": "UG"}))
    data["eligibility_policy-rows"] = count
    assert organizer_client.post(change_url(listed), data).status_code in (200, 302)


def test_too_many_conditions_is_a_clear_error(organizer_client, listed):
    rows = policy_rows(*[{"column": "programme", "kind": "one_of", "values": "UG"}] * 22)
    page = organizer_client.post(change_url(listed), form_data(listed, organizer_client, **rows)).content.decode()
    assert "at most 20 are allowed" in page


def test_a_refused_form_shows_the_rows_as_typed_and_two_empty_ones(organizer_client, listed):
    rows = policy_rows({"column": "programme", "kind": "one_of", "values": "UG"},
                       {"column": "", "kind": "one_of", "values": ""},
                       {"column": "year", "kind": "range", "low": "4", "high": "1"},
                       {"column": "", "kind": "one_of", "values": ""})
    page = organizer_client.post(change_url(listed), form_data(listed, organizer_client, **rows)).content.decode()
    assert 'name="eligibility_policy-rows" value="4"' in page, "the two conditions typed, then two empty rows"
    assert 'name="eligibility_policy-1-low" value="4"' in page and 'name="eligibility_policy-0-values" value="UG"' in page
    assert "Condition 2 (year): From (4) is larger than To (1)." in page, "numbered as the rows are shown again"
