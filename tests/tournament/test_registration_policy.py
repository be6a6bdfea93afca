"""Registration refuses a list entry outside the event's eligibility policy, saying why."""

import pytest
from django.urls import reverse

from tests.tournament.organizer_factories import make_event, make_verified_user
from tournament.models import EligibilityEntry, Event, Player
from tournament.services.registration import RegistrationRefused, register_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def undergraduate_event():
    event = make_event(name="Chem UG Ocho", status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.LIST,
                       eligibility_policy=[{"column": "programme", "one_of": ["UG"]},
                                           {"column": "department", "one_of": ["Chemical Engineering"]},
                                           {"column": "section", "one_of": ["A", "B"]}])
    for roll, name, email, programme, section in (("CHE2201", "Asha Sen", "asha@ju.example", "UG", "A"),
                                                  ("CHE9001", "Dev Nag", "dev@ju.example", "PG", "A"),
                                                  ("CHE2202", "Ravi Das", "ravi@ju.example", "UG", "C")):
        EligibilityEntry.objects.create(event=event, roll_number=roll, name=name, email=email,
                                        department="Chemical Engineering", programme=programme, year=1,
                                        extra={"section": section})
    return event


def student(username):
    """A student whose verified address is the list's (registration needs both)."""
    return make_verified_user(username, email=f"{username}@ju.example")


def test_a_postgraduate_on_the_list_is_refused_with_the_reason(undergraduate_event):
    with pytest.raises(RegistrationRefused) as refused:
        register_player(undergraduate_event, student("dev"), "che9001", "Dev")
    assert str(refused.value) == "Roll number CHE9001 may not register for Chem UG Ocho: programme is PG (must be UG)."
    assert not Player.objects.exists()


def test_a_condition_on_a_column_of_the_uploaded_file(undergraduate_event):
    with pytest.raises(RegistrationRefused, match=r"section is C \(must be one of: A, B\)"):
        register_player(undergraduate_event, student("ravi"), "CHE2202", "Ravi")


def test_an_undergraduate_of_the_department_registers(undergraduate_event):
    player = register_player(undergraduate_event, student("asha"), "CHE2201", "Asha")
    assert player.roll_number == "CHE2201"


def test_the_registration_page_shows_the_reason(client, undergraduate_event):
    client.force_login(student("dev"))
    html = client.post(reverse("register", args=[undergraduate_event.slug]),
                       {"roll_number": "CHE9001", "display_name": "Dev"}).content.decode()
    assert "may not register for Chem UG Ocho: programme is PG (must be UG)." in html
    assert not Player.objects.exists()
