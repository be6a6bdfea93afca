"""The organizer's live round view in Chromium against a live ASGI server: a student arrives at their
table on a phone and the organizer's page (a desktop) shows them connected without a reload; the organizer
has a bot play a no-show's seat, the page shows the bot, and an announcement reaches the student's table
and event page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import LiveGame
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Seat
from tournament.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cookie_for(user, url: str) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": url}


@pytest.fixture
def live_round(live_asgi):
    """A started round of one table of three students (made before the browser starts)."""
    event = make_event(min_table_size=3, max_table_size=3, target_score=5000, turn_seconds=0, status="running")
    organizer = make_organizer_of(event)
    make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    rounds.start_round(round_, organizer)
    live = LiveGame.objects.get(game__table__round=round_)
    seats = {s.number: s for s in Seat.objects.filter(table__round=round_).select_related("player__user")}
    return round_, live, cookie_for(organizer, live_asgi.url), cookie_for(seats[0].player.user, live_asgi.url), seats


def test_the_live_view_shows_a_connected_player_and_a_no_show_played_by_a_bot(live_asgi, live_round, chromium):
    round_, live, organizer_cookie, student_cookie, seats = live_round
    desk = chromium.new_context(viewport={"width": 1280, "height": 900})
    desk.add_cookies([organizer_cookie])
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.add_cookies([student_cookie])
    try:
        organizer = desk.new_page()
        organizer.set_default_timeout(20_000)
        errors = []
        organizer.on("pageerror", lambda error: errors.append(str(error)))
        organizer.goto(f"{live_asgi.url}{reverse('admin:tournament_round_live', args=[round_.pk])}")
        organizer.locator('#live-status[data-live="open"]').wait_for(state="attached")
        for number in (0, 1, 2):
            assert organizer.locator(f'tr[data-seat="{number}"]').get_attribute("data-state") == "away"

        student = phone.new_page()
        student.set_default_timeout(20_000)
        student.goto(f"{live_asgi.url}{reverse('games:table', args=[live.pk])}")
        student.locator("#role-badge", has_text="Playing").wait_for()
        # pushed to the organizer's page: no reload
        organizer.locator('tr[data-seat="0"][data-state="connected"]').wait_for()
        assert "connected" in organizer.locator('tr[data-seat="0"] .state').inner_text()

        # seat 3 never came: a bot plays it from now on
        seat = seats[2]
        organizer.select_option(f'select[name="replacement_{seat.pk}"]', "bot")
        organizer.fill(f'input[name="reason_seat_{seat.pk}"]', "did not come")
        organizer.locator(f'button[value="replace:{seat.pk}"]').click()
        organizer.locator('tr[data-seat="2"][data-state="bot"]').wait_for()
        assert "bot seat" in organizer.locator('tr[data-seat="2"] .state').inner_text()
        organizer.locator('#live-status[data-live="open"]').wait_for(state="attached")
        organizer.locator('tr[data-seat="0"][data-state="connected"]').wait_for()
        watch = reverse("games:table", args=[live.pk])
        assert organizer.locator(f'#live-table-1 a[href="{watch}"]').count() == 1  # a link to watch the table

        # an announcement reaches the student's table and the event's page at once
        event_page = phone.new_page()
        event_page.set_default_timeout(20_000)
        event_page.goto(f"{live_asgi.url}{reverse('event_detail', args=[round_.event.slug])}")
        assert event_page.locator("#announcement").is_hidden()
        organizer.fill('input[name="text"]', "Round two at 3 pm in room B")
        organizer.locator('button[value="announce"]').click()
        student.locator("#announcement:not([hidden])", has_text="Round two at 3 pm in room B").wait_for()
        event_page.locator("#announcement:not([hidden])", has_text="Round two at 3 pm in room B").wait_for()
        assert errors == []
    finally:
        desk.close()
        phone.close()
