"""Announcements: an organizer's message reaches every table socket and every event socket of the event at
once, is stored and audited, and a socket or page opened later shows the latest."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from games.models import LiveGame
from tests.games.factories import HOST, ORIGIN, login_socket
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Announcement, AuditEntry, Event, Seat
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
    watcher = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN, HOST])
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
    watcher = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN, HOST])
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


# ---- ending an announcement --------------------------------------------------------------------------

@pytest.mark.django_db
def test_an_organizer_ends_an_announcement_now_and_it_stays_listed_with_who_posted_and_ended_it():
    event, organizer, live, student = start_round()
    other = make_organizer_of(event, "second_organizer")
    made = announcements.announce(event, "Round 1 ends at 3:45", organizer)
    event.refresh_from_db()
    assert (event.announcement, event.shown_announcement_id) == ("Round 1 ends at 3:45", made.pk)
    assert announcements.running(event.pk) == made
    page = Client().get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "Round 1 ends at 3:45" in page and f'data-id="{made.pk}"' in page

    client = Client()
    client.force_login(other)
    url = reverse("admin:tournament_event_announce", args=[event.pk])
    listed = client.get(url).content.decode()
    assert f'data-id="{made.pk}"' in listed and f'value="end_announcement:{made.pk}"' in listed
    control_room = reverse("admin:tournament_event_control_room", args=[event.pk])
    room = client.get(control_room).content.decode()  # the control room shows it, with its End button
    assert 'id="showing-announcement"' in room and "Round 1 ends at 3:45" in room
    assert f'value="end_announcement:{made.pk}"' in room and f'action="{url}"' in room
    done = client.post(url, {"action": f"end_announcement:{made.pk}"}, follow=True).content.decode()
    assert "Announcement ended" in done
    made.refresh_from_db()
    event.refresh_from_db()
    assert made.ended_at is not None and made.ended_by == other and made.author == organizer
    assert (event.announcement, event.shown_announcement_id, event.announced_at) == ("", None, None)
    assert announcements.running(event.pk) is None and announcements.latest(event.pk) == made
    posted = AuditEntry.objects.get(event=event, action="event.announce")
    ended = AuditEntry.objects.get(event=event, action="event.announcement_end")
    assert posted.actor == organizer and ended.actor == other
    assert ended.changes == {"text": "Round 1 ends at 3:45", "posted_by": str(organizer)}
    for name in ("event_detail", "leaderboard"):
        page = Client().get(reverse(name, args=[event.slug])).content.decode()
        assert "Round 1 ends at 3:45" not in page and 'id="announcement"' in page, name
    room = client.get(control_room).content.decode()
    assert 'id="showing-announcement"' not in room
    # The control room lists it still: the text, who posted it, who ended it and when.
    history = room[room.index('id="announcement-history"'):]
    row = history[history.index(f'data-id="{made.pk}"'):]
    row = row[:row.index("</tr>")]
    ended_at = timezone.localtime(made.ended_at).strftime("%H:%M")
    assert "Round 1 ends at 3:45" in row and f"<td>{organizer}</td>" in row and f"Ended {ended_at} by {other}" in row
    listed = client.get(url).content.decode()  # still listed: who posted it, who ended it
    row = listed[listed.index(f'data-id="{made.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "Round 1 ends at 3:45" in row and str(organizer) in row and f"by {other}" in row
    assert "end_announcement" not in row

    with pytest.raises(announcements.AnnouncementError, match="already been ended"):
        announcements.end(made, organizer)
    assert AuditEntry.objects.filter(action="event.announcement_end").count() == 1
    # from the live round view too; another event's announcement, or nonsense, is refused with a message
    second = announcements.announce(event, "Room B is open", organizer)
    live_url = reverse("admin:tournament_round_live", args=[live.game.table.round_id])
    assert f'value="end_announcement:{second.pk}"' in client.get(live_url).content.decode()
    foreign = announcements.announce(make_event(), "Elsewhere", None)
    for bad in (f"end_announcement:{foreign.pk}", "end_announcement:x", "end_announcement:", "end_announcement:9999999"):
        response = client.post(live_url, {"action": bad}, follow=True)
        assert response.status_code == 200 and "not one of this event" in response.content.decode()
    assert Announcement.objects.get(pk=foreign.pk).ended_at is None
    client.post(live_url, {"action": f"end_announcement:{second.pk}"})
    assert Announcement.objects.get(pk=second.pk).ended_by == other and announcements.running(event.pk) is None
    stranger = Client()
    stranger.force_login(make_organizer_of(make_event()))
    assert stranger.post(url, {"action": f"end_announcement:{made.pk}"}).status_code == 404


@pytest.mark.django_db
def test_an_announcement_with_an_end_time_stops_showing_when_it_passes():
    event, organizer, live, student = start_round()
    with pytest.raises(announcements.AnnouncementError, match="later than now"):
        announcements.announce(event, "Too late", organizer, ends_at=timezone.now() - timedelta(seconds=1))
    client = Client()
    client.force_login(organizer)
    url = reverse("admin:tournament_event_announce", args=[event.pk])
    for bad in ("abc", "0", "-5", "1.5", "99999"):
        refused = client.post(url, {"text": "Lunch", "announce_minutes": bad}, follow=True)
        assert refused.status_code == 200 and "whole number of minutes" in refused.content.decode(), bad
    assert not Announcement.objects.exists()
    before = timezone.now()
    client.post(url, {"text": "Lunch break", "announce_minutes": "20"})
    made = Announcement.objects.get(event=event)
    assert before + timedelta(minutes=20) <= made.ends_at <= timezone.now() + timedelta(minutes=20)
    assert AuditEntry.objects.get(action="event.announce").changes["ends_at"] == made.ends_at.isoformat()
    page = Client().get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "Lunch break" in page and "data-ends-at=" in page  # the page drops it by itself at that time
    message = announcements.as_message(made)
    assert message["ended"] is False and message["ends_at"] == made.ends_at.isoformat()

    # the time passes: pages no longer show it, sockets send it only as ended, the control page says so
    past = timezone.now() - timedelta(seconds=1)
    Announcement.objects.filter(pk=made.pk).update(ends_at=past)
    Event.objects.filter(pk=event.pk).update(announcement_ends_at=past)
    assert announcements.running(event.pk) is None
    assert announcements.as_message(announcements.latest(event.pk))["ended"] is True
    page = Client().get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "Lunch break" not in page
    assert "Time up at" in client.get(url).content.decode()


@pytest.mark.django_db(transaction=True)
async def test_an_ended_announcement_is_sent_as_ended_to_open_sockets_and_to_sockets_opened_later():
    event, organizer, live, student = await database_sync_to_async(start_round)()
    made = await database_sync_to_async(announcements.announce)(event, "Round 1 ends at 3:45", organizer)
    table = await login_socket(live.pk, student)
    await table.connect()
    shown = await table.receive_until(lambda m: m["type"] == "announcement")
    assert (shown["id"], shown["ended"], shown["ends_at"]) == (made.pk, False, None)
    watcher = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN, HOST])
    assert (await watcher.connect(timeout=10))[0]
    assert (await until(watcher, "announcement"))["ended"] is False

    await database_sync_to_async(announcements.end)(made, organizer)
    at_table = await table.receive_until(lambda m: m["type"] == "announcement")
    on_page = await until(watcher, "announcement")
    for message in (at_table, on_page):
        assert (message["id"], message["ended"], message["text"]) == (made.pk, True, "Round 1 ends at 3:45")
    await table.close()
    await watcher.disconnect()

    # a page that missed the push (reconnecting) is told it ended, so it drops it too
    later = await login_socket(live.pk, student)
    await later.connect()
    again = await later.receive_until(lambda m: m["type"] == "announcement")
    assert (again["id"], again["ended"]) == (made.pk, True)
    await later.close()
    mine = WebsocketCommunicator(application, f"/ws/events/{event.slug}/", headers=[ORIGIN, HOST])
    assert (await mine.connect(timeout=10))[0]
    assert (await until(mine, "announcement"))["ended"] is True
    await mine.disconnect()
