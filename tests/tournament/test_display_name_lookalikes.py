"""A copy of another player's name cannot pass for it: invisible and direction characters are refused,
names are stored NFKC-normalized, and a name that reads like one in the event (look-alike letters) is
refused, on the register page and on the organizer's player page alike."""

import pytest
from django.urls import reverse

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_verified_user
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = make_event(status=Event.Status.REGISTRATION, eligibility=Event.Eligibility.OPEN)
    Player.objects.create(event=event, user=make_verified_user("asha"), display_name="Asha Sen")
    return event


def register(client, event, display_name: str):
    client.force_login(make_verified_user())
    return client.post(reverse("register", args=[event.slug]), {"roll_number": "", "display_name": display_name})


@pytest.mark.parametrize("copy, code", [
    ("Asha\u200b Sen", "U+200B"),  # zero-width space
    ("\u2066Asha Sen", "U+2066"),  # left-to-right isolate
    ("Asha Sen\u202e", "U+202E"),  # right-to-left override
    ("As\u200dha Sen", "U+200D"),  # zero-width joiner
])
def test_invisible_characters_are_refused(client, event, copy, code):
    response = register(client, event, copy)
    assert response.status_code == 200
    assert f"The name contains invisible or control characters ({code})" in response.content.decode()
    assert list(Player.objects.filter(event=event).values_list("display_name", flat=True)) == ["Asha Sen"]


@pytest.mark.parametrize("copy", [
    "\u0410sha Sen",  # Cyrillic capital A
    "Ash\u0430 S\u0435n",  # Cyrillic small a and ie
    "AshA SEN",  # case only
])
def test_a_name_that_reads_like_anothers_is_refused(client, event, copy):
    html = register(client, event, copy).content.decode()
    assert "looks the same as &quot;Asha Sen&quot;" in html or "already shows as" in html
    assert Player.objects.filter(event=event).count() == 1


def test_a_capital_i_for_a_small_l_is_refused(client, event):
    Player.objects.create(event=event, display_name="Anil Roy")
    assert "looks the same as" in register(client, event, "AniI Roy").content.decode()
    assert register(client, event, "Ali Roy").status_code == 302  # a different name still registers


def test_names_are_stored_nfkc_normalized(client, event):
    response = register(client, event, "\uff21\uff53\uff48\uff41  K.")  # full-width letters
    assert response.status_code == 302
    assert Player.objects.filter(event=event).exclude(display_name="Asha Sen").get().display_name == "Asha K."


def test_the_organizers_player_page_refuses_a_look_alike(client, event):
    other = Player.objects.create(event=event, display_name="Ravi Bose")
    client.force_login(make_organizer_of(event))
    url = reverse("admin:tournament_player_change", args=[other.pk])
    html = client.post(url, {"display_name": "\u0410sha Sen", "seeding": ""}).content.decode()
    assert "looks the same as" in html
    other.refresh_from_db()
    assert other.display_name == "Ravi Bose"
