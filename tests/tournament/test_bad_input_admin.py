"""Bad input through the organizer's pages, end to end: every bad file, form value and action on the wrong
state gets a message saying what to fix, and nothing of it is saved (no row, no audit entry)."""

import codecs

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournament.organizer_factories import make_players, seat_first_round_in_admin
from tournament.csv_formats import MAX_UPLOAD_BYTES
from tournament.models import AuditEntry, EligibilityEntry, Game, Hand, Round

pytestmark = pytest.mark.django_db

HEADER = "roll_number,name,email,department,programme,year\n"
ROW = "001,Ananya Basu,ananya@ju.in,Chemical Engineering,UG,2\n"


def upload(client, event, data: bytes, name="list.csv"):
    return client.post(reverse("admin:tournament_event_eligibility_upload", args=[event.pk]),
                       {"file": SimpleUploadedFile(name, data, content_type="text/csv")})


BAD_FILES = {
    "empty": (b"", "empty"),
    "blank lines only": (b"\n\n  \n", "empty"),
    "header only": (HEADER.encode(), "no rows"),
    "wrong columns": (b"roll,full name\n1,A\n", "Missing columns"),
    "latin-1": ((HEADER + "002,Zoë Ärtz,z@ju.in,ChE,UG,1\n").encode("latin-1"), "not UTF-8"),
    "utf-16": (codecs.BOM_UTF16_LE + (HEADER + ROW).encode("utf-16-le"), "not UTF-8"),
    "a picture": (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "not UTF-8"),
    "duplicate rows": ((HEADER + ROW + ROW).encode(), "appears twice in the file"),
    "every row bad": ((HEADER + ",No Roll,x@ju.in,ChE,UG,1\n").encode(), "roll_number is missing"),
    "too large": ((HEADER + ROW * (MAX_UPLOAD_BYTES // len(ROW) + 10)).encode(), "larger than 2 MB"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_eligibility_file_is_explained_and_nothing_is_saved(organizer_client, event, name):
    data, message = BAD_FILES[name]
    response = upload(organizer_client, event, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not EligibilityEntry.objects.exists() and not AuditEntry.objects.exists()
    if response.context.get("token"):  # a preview was offered: confirming it saves nothing either
        url = reverse("admin:tournament_event_eligibility_upload", args=[event.pk])
        page = organizer_client.post(url, {"token": response.context["token"], "confirm": "Import"}, follow=True)
        text = page.content.decode()
        assert message in text or "nothing was imported" in text or "no good rows" in text.lower()
        assert not EligibilityEntry.objects.exists() and not AuditEntry.objects.exists()


@pytest.fixture
def running_round(organizer_client, event):
    make_players(event, 3)
    seat_first_round_in_admin(organizer_client, event)
    round_ = Round.objects.get(event=event)
    organizer_client.post(reverse("admin:tournament_round_overview", args=[round_.pk]), {"start": "1"})
    round_.refresh_from_db()
    assert round_.status == "running"
    return round_


@pytest.mark.parametrize(("status", "action", "message"), [
    ("running", "resume", "it cannot be resumed"),
    ("finished", "pause", "it cannot be paused"),
    ("finished", "finish", "it cannot be finished"),
    ("running", "explode", "Unknown game action"),
    ("running", "finish", "Say why"),
])
def test_a_game_action_on_the_wrong_state_is_explained_and_changes_nothing(organizer_client, running_round,
                                                                          status, action, message):
    game = Game.objects.get(table__round=running_round)
    Game.objects.filter(pk=game.pk).update(status=status)
    audit_before = AuditEntry.objects.count()
    url = reverse("admin:tournament_round_overview", args=[running_round.pk])
    reason = "" if message == "Say why" else "a reason"
    page = organizer_client.post(url, {"game": game.pk, "game_action": action, "reason": reason},
                                 follow=True).content.decode()
    assert message in page
    game.refresh_from_db()
    assert game.status == status and AuditEntry.objects.count() == audit_before


def test_starting_a_running_round_again_or_naming_no_game_is_refused(organizer_client, running_round):
    url = reverse("admin:tournament_round_overview", args=[running_round.pk])
    audit_before = AuditEntry.objects.count()
    page = organizer_client.post(url, {"start": "1"}, follow=True).content.decode()
    assert "not planned" in page
    assert organizer_client.post(url, {"game": "not-a-number", "game_action": "pause"}).status_code == 404
    assert AuditEntry.objects.count() == audit_before


@pytest.mark.parametrize(("change", "message"), [
    ({"number": "0"}, "greater than or equal to 1"),
    ({"number": "one"}, "Enter a whole number"),
    ({"points": "-5"}, "greater than or equal to 0"),
    ({"points": "lots"}, "Enter a whole number"),
    ({"winner": "999999"}, "Select a valid choice"),
    ({"reason": ""}, "This field is required"),
    ({"attendance": ""}, "played or did not play."),
    ({"attendance": "maybe"}, "maybe is not one of the available choices"),
])
def test_a_bad_hand_result_is_explained_and_nothing_is_saved(organizer_client, running_round, change, message):
    game = Game.objects.get(table__round=running_round)
    seats = list(game.table.seats.order_by("number"))
    form = {"number": "1", "winner": str(seats[0].pk), "reason": "paper score sheet"}
    form.update({f"points_{s.pk}": "0" if i == 0 else "12" for i, s in enumerate(seats)})
    form.update({f"did_not_play_{s.pk}": "played" for s in seats})
    if "points" in change:
        form[f"points_{seats[1].pk}"] = change.pop("points")
    if "attendance" in change:  # a table played on paper: each seat needs "played" or "did not play"
        form[f"did_not_play_{seats[1].pk}"] = change.pop("attendance")
    form.update(change)
    audit_before = AuditEntry.objects.count()
    response = organizer_client.post(reverse("admin:tournament_game_record_hand", args=[game.pk]), form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Hand.objects.filter(game=game).exists() and AuditEntry.objects.count() == audit_before
