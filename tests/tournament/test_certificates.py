"""Certificates and the results sheet (PDF): the organizer's whole file and a student's own certificate,
read back with pypdf; the results page, the bracket's podium and the control room's links."""

import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import make_user
from tests.tournament.places_factories import bracket_started, finished_event
from tournament.models import Event, Player
from tournament.results_pdf import place_words
from tournament.services import event_status
from tournament.services.final_places import event_places

pytestmark = pytest.mark.django_db


def pages_text(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def test_the_organizer_gets_a_certificate_per_participant_and_the_results_sheet(client):
    done = finished_event()
    client.force_login(done.organizer)
    response = client.get(reverse("admin:tournament_event_certificates", args=[done.event.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    texts = pages_text(response.content)
    rows = event_places(done.event)
    names = {r.player_id: r.display_name for r in rows}
    certificates = [t for t in texts if "Certificate" in t]
    assert len(certificates) == 20, "the 20 who took part; no-shows and the never seated get none"
    by_name = {next(n for n in names.values() if n in t.split("\n")): t for t in certificates}
    champion = by_name[names[done.final[0]]]
    assert "1st place" in champion and done.event.name in champion
    assert "5th-6th place (shared)" in by_name[names[done.stage_one[0][1]]]
    assert "16th place" in by_name[names[done.stage_one[3][3]]]
    assert "Participant" in by_name[names[done.outside[0]]], "round one only: a participant"
    assert not {names[p] for p in done.no_shows} & set(by_name)
    # Every certificate's place is that participant's final place: the bracket's players by their place,
    # round one's players outside the bracket as participants.
    in_bracket = {p for table in done.stage_one for p in table}
    assert set(by_name) == {names[p] for p in in_bracket | set(done.outside)}
    for row in rows:
        if row.player_id in in_bracket | set(done.outside):
            lines = by_name[row.display_name].split("\n")
            said = place_words(row.place_label) if row.player_id in in_bracket else "Participant"
            assert lines[lines.index(row.display_name) + 3] == said, (row.display_name, row.place_label)
    sheet = "\n".join(t for t in texts if "Certificate" not in t)
    for row in rows:
        assert f"\n{row.place_label}\n{row.display_name}" in sheet
    assert "Final" in sheet and "Stage 1" in sheet and "went on" in sheet
    # Someone else's event: not theirs to download.
    other = make_user("someone-else", is_staff=True)
    client.force_login(other)
    assert client.get(reverse("admin:tournament_event_certificates", args=[done.event.pk])).status_code in (403, 404)


def test_a_student_downloads_only_their_own_certificate_once_the_final_is_decided(client):
    event, organizer, _one, bracket, no_shows = bracket_started()
    url = reverse("my_certificate", args=[event.slug])
    player = Player.objects.get(pk=bracket.tables.get(stage=1, number=1).seats.first().player_id)
    client.force_login(player.user)
    early = client.get(url)
    assert early.status_code == 404 and b"once the final is decided" in early.content
    done = finished_event()
    champion = Player.objects.get(pk=done.final[0])
    client.force_login(champion.user)
    mine = client.get(reverse("my_certificate", args=[done.event.slug]))
    texts = pages_text(mine.content)
    assert len(texts) == 1 and champion.display_name in texts[0] and "1st place" in texts[0]
    client.force_login(Player.objects.get(pk=done.no_shows[0]).user)
    refused = client.get(reverse("my_certificate", args=[done.event.slug]))
    assert refused.status_code == 404 and b"took part" in refused.content
    client.logout()
    assert client.get(reverse("my_certificate", args=[done.event.slug])).status_code == 302  # to log in


def test_place_words():
    assert [place_words(p) for p in ("1", "2", "3", "4", "11", "22", "5-6", "")] == [
        "1st place", "2nd place", "3rd place", "4th place", "11th place", "22nd place", "5th-6th place (shared)",
        "Participant"]


def test_results_page_bracket_podium_and_control_room_link_to_each_other():
    done = finished_event()
    client = Client()
    results = reverse("results", args=[done.event.slug])
    page = client.get(results).content.decode()
    champion = Player.objects.get(pk=done.final[0]).display_name
    podium = page.split('id="podium"')[1].split("</ol>")[0]
    assert podium.index(champion) < podium.index(Player.objects.get(pk=done.final[1]).display_name)
    assert 'id="placement"' in page and "Zed Latecomer" in page
    bracket = client.get(reverse("bracket", args=[done.event.slug, 2]), {"projector": "1"}).content.decode()
    assert 'id="podium"' in bracket and f'href="{results}"' in bracket
    organizer = Client()
    organizer.force_login(done.organizer)
    room = organizer.get(reverse("admin:tournament_event_control_room", args=[done.event.pk])).content.decode()
    assert f'href="{results}"' in room
    assert reverse("admin:tournament_event_certificates", args=[done.event.pk]) in room
    assert client.get(reverse("results", args=["no-such-event"])).status_code == 404


def test_an_event_without_a_bracket_gets_its_podium_when_it_is_finished(client, settings):
    settings.STANDINGS_VERSION_CHECK_SECONDS = 0  # the event's status is read again on each request
    event, organizer, _round_one = played_first_round(8, status=Event.Status.RUNNING)
    url = reverse("results", args=[event.slug])
    before = client.get(url).content.decode()
    assert 'id="results-provisional"' in before and 'id="podium"' not in before
    event_status.finish_event(event, organizer)
    after = client.get(url).content.decode()
    first = event_places(event)[0]
    assert 'id="podium"' in after and first.display_name in after.split('id="podium"')[1].split("</ol>")[0]
    client.force_login(Player.objects.get(pk=first.player_id).user)
    step = client.get(reverse("my_event", args=[event.slug])).content.decode()
    assert f"{event.name} is over: you placed {first.place_label} of 8." in step
