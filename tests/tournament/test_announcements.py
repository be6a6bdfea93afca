"""Announcements: an organizer's message reaches every table socket and every event socket of the event at
once, is stored and audited, and a socket or page opened later shows the latest."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games.models import LiveGame
from tests.games.factories import ORIGIN, login_socket
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Announcement, AuditEntry, Seat
from tournament.services import announcements, rounds

pytestmark = [pytest.mark.usefixtures("live_settings")]


def start_round():
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0)
    organizer = make_organizer_of(event)
    make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    live = LiveGame.objects.get(game__table__round=round_)
    student = Seat.objects.get(table__round=round_, number=0).player.user
    return event, organizer, live, student


async def until(comm, kind: str, timeout: float = 10) -> dict:
    while True:
        message = json.loads(await comm.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message


@pytest.mark.django_db(transaction=True)
async def test_an_announcement_reaches_a_table_socket_and_an_event_socket_at_once():
    event, organizer, live, student = await database_sync_to_async(start_round)()
    assert live.announce_group == f"event-{event.pk}-announce"
    table = await login_socket(live.pk, student)
    await table.connect()
    watcher = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN])
    assert (await watcher.connect(timeout=10))[0]
    await until(watcher, "leaderboard")
    await database_sync_to_async(announcements.announce)(event, "  Round two starts at 3 pm  ", organizer)
    at_table = await table.receive_until(lambda m: m["type"] == "announcement")
    assert at_table["text"] == "Round two starts at 3 pm" and at_table["at"]
    on_page = await until(watcher, "announcement")
    assert on_page["text"] == "Round two starts at 3 pm"
    await table.close()
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_sockets_opened_later_are_sent_the_latest_announcement():
    event, organizer, live, student = await database_sync_to_async(start_round)()
    await database_sync_to_async(announcements.announce)(event, "Old news", organizer)
    await database_sync_to_async(announcements.announce)(event, "Tables 1-4 move to room B", organizer)
    table = await login_socket(live.pk, student)
    await table.connect()
    assert (await table.receive_until(lambda m: m["type"] == "announcement"))["text"] == "Tables 1-4 move to room B"
    watcher = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN])
    assert (await watcher.connect(timeout=10))[0]
    assert (await until(watcher, "announcement"))["text"] == "Tables 1-4 move to room B"
    await table.close()
    await watcher.disconnect()


@pytest.mark.django_db
def test_announcements_are_stored_audited_shown_on_event_pages_and_refused_when_empty():
    event, organizer, live, student = start_round()
    client = Client()
    client.force_login(organizer)
    url = reverse("admin:tournament_event_announce", args=[event.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"text": "Lunch break: 20 minutes"})
    made = Announcement.objects.get(event=event)
    assert made.text == "Lunch break: 20 minutes" and made.author == organizer
    assert AuditEntry.objects.filter(action="event.announce", actor=organizer).exists()
    for bad in ("", "   ", "x" * 501):
        refused = client.post(url, {"text": bad}, follow=True).content.decode()
        assert "announcement" in refused.lower() and Announcement.objects.filter(event=event).count() == 1
    for name in ("event_detail", "leaderboard"):
        page = Client().get(reverse(name, args=[event.slug])).content.decode()
        assert 'id="announcement"' in page and "Lunch break: 20 minutes" in page, name
    # from the live round view too
    round_id = live.game.table.round_id
    client.post(reverse("admin:tournament_round_live", args=[round_id]), {"action": "announce", "text": "Go!"})
    assert announcements.latest(event.pk).text == "Go!"
    other = make_organizer_of(make_event())
    stranger = Client()
    stranger.force_login(other)
    assert stranger.post(url, {"text": "hijack"}).status_code == 404
    assert not Announcement.objects.filter(text="hijack").exists()
