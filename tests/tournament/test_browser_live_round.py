"""The organizer's live round view in Chromium against a live ASGI server: a student arrives at their
table on a phone and the organizer's page (a desktop) shows them connected without a reload; the organizer
has a bot play a no-show's seat, the page shows the bot, and an announcement reaches the student's table
and event page: one line at the phone's table with the hand in view, gone from both when the organizer
ends it or its time is up."""

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


LONG_ANNOUNCEMENT = ("Round 1 ends at 3:45: finish the hand you are playing, then stay at your table until an "
                     "organizer has checked your score sheet; round two starts at 4 in room B, tables as posted")


def student_box(page, selector: str) -> dict:
    return page.eval_on_selector(selector, """el => {
      const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }""")


def lines_of(page, selector: str) -> int:
    """The lines an inline element's text takes on the page."""
    return page.eval_on_selector(selector, "el => new Set([...el.getClientRects()].map(r => Math.round(r.top))).size")


def on_phone_screen(rect) -> bool:
    return rect["height"] > 0 and rect["x"] >= 0 and rect["y"] >= 0 and rect["x"] + rect["width"] <= 390.5 \
        and rect["y"] + rect["height"] <= 844.5


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
        event_page.clock.install()  # its time is moved on below, to pass an announcement's end time
        event_page.goto(f"{live_asgi.url}{reverse('event_detail', args=[round_.event.slug])}")
        assert event_page.locator("#announcement").is_hidden()
        organizer.fill('input[name="text"]', "Round two at 3 pm in room B")
        organizer.locator('button[value="announce"]').click()
        student.locator("#announcement:not([hidden])", has_text="Round two at 3 pm in room B").wait_for()
        event_page.locator("#announcement:not([hidden])", has_text="Round two at 3 pm in room B").wait_for()

        # at the phone's table a long one takes one line, the hand stays wholly in view; a tap shows it all
        student.locator("#hand .card").first.wait_for()
        hand_before = student_box(student, "#hand")
        organizer.fill('input[name="text"]', LONG_ANNOUNCEMENT)
        organizer.locator('button[value="announce"]').click()
        banner = student.locator("#announcement:not([hidden])", has_text="Round 1 ends at 3:45")
        banner.wait_for()
        assert lines_of(student, "#announcement .announcement-text") == 1
        assert student_box(student, "#announcement")["height"] < 48
        hand = student_box(student, "#hand")
        assert on_phone_screen(hand), (hand_before, hand)
        slot = student_box(student, ".announcement-slot")
        banner.click()
        student.locator("#announcement.expanded").wait_for()
        assert lines_of(student, "#announcement .announcement-text") > 1  # the whole text, wrapped
        # opened over the felt: the room it takes in the page is still one line's, the hand still in view
        assert abs(student_box(student, ".announcement-slot")["height"] - slot["height"]) < 1
        assert on_phone_screen(student_box(student, "#hand"))
        banner.click()
        assert lines_of(student, "#announcement .announcement-text") == 1

        # the organizer ends it: gone from the open table and the open event page, without a reload
        organizer.locator("#running-announcement", has_text="Round 1 ends at 3:45").wait_for()
        organizer.locator('#running-announcement button[value^="end_announcement:"]').click()
        student.locator("#announcement").wait_for(state="hidden")
        event_page.locator("#announcement").wait_for(state="hidden")
        assert organizer.locator("#running-announcement").count() == 0

        # one given a time leaves an open page when the time is up
        organizer.fill('input[name="text"]', "Back in one minute")
        organizer.fill('input[name="announce_minutes"]', "1")
        organizer.locator('button[value="announce"]').click()
        event_page.locator("#announcement:not([hidden])", has_text="Back in one minute").wait_for()
        event_page.clock.fast_forward("01:05")
        event_page.locator("#announcement").wait_for(state="hidden")
        assert errors == []
    finally:
        desk.close()
        phone.close()
