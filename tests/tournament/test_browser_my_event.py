"""A student's "My event" on a phone, in a real headless Chromium against a live ASGI server: when the
organizer starts the round (in another browser), the page changes from waiting to "your table is ready"
with its Play button, and an organizer's announcement shows as the page's banner, both without a reload."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Event, Player
from tournament.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def cookie_of(user, url: str) -> dict:
    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": url}


@pytest.fixture
def seated_round(live_asgi):
    """Round 1 seated, not started; made before the browser starts."""
    event = make_event(name="Ocho night", status=Event.Status.RUNNING, min_table_size=4, max_table_size=4,
                       target_score=100)
    organizer = make_organizer_of(event)
    players = make_players(event, 4, status=Player.Status.CHECKED_IN)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1, source=rounds.CHECKED_IN),
                                       organizer)
    return event, round_, cookie_of(players[0].user, live_asgi.url), cookie_of(organizer, live_asgi.url)


def test_my_event_shows_the_table_is_ready_when_the_organizer_starts_the_round(live_asgi, seated_round,
                                                                                chromium, page):
    event, round_, student_cookie, organizer_cookie = seated_round
    page.context.add_cookies([student_cookie])
    page.goto(f"{live_asgi.url}/events/{event.slug}/me/")
    step = page.locator("#my-event-live .next-step")
    assert step.get_attribute("data-step") == "seated"
    assert "Your table for round 1." in step.inner_text()
    assert page.get_by_role("link", name="Play now").count() == 0
    page.get_by_text("This page updates by itself.").wait_for()
    page.evaluate("window.notReloaded = true")

    organizer = chromium.new_context().new_page()
    organizer.context.add_cookies([organizer_cookie])
    organizer.goto(f"{live_asgi.url}/admin/tournament/round/{round_.pk}/tables/")
    organizer.get_by_role("button", name="Start round 1").click()
    organizer.get_by_text("Round 1 started.").wait_for()

    page.locator('#my-event-live .next-step[data-step="play"]').wait_for()
    assert "Your table is ready" in page.locator("#my-event-live .next-step").inner_text()
    assert page.evaluate("window.notReloaded") is True, "updated without a reload"
    play = page.get_by_role("link", name="Play now")
    assert play.is_visible()
    assert page.locator("#my-event-live a.btn").all_inner_texts() == ["Play now"]  # one button to the table
    play.click()
    page.locator("#table").wait_for()
    assert page.locator("#role-badge").inner_text().strip() == "Playing"
    organizer.context.close()


def test_my_event_shows_an_announcement_as_it_is_made(live_asgi, seated_round, chromium, page):
    event, round_, student_cookie, organizer_cookie = seated_round
    page.context.add_cookies([student_cookie])
    page.goto(f"{live_asgi.url}/events/{event.slug}/me/")
    banner = page.locator("#announcement")
    assert banner.is_hidden(), "no announcement yet"
    page.get_by_text("This page updates by itself.").wait_for()
    page.evaluate("window.notReloaded = true")

    organizer = chromium.new_context().new_page()
    organizer.context.add_cookies([organizer_cookie])
    organizer.goto(live_asgi.url + reverse("admin:tournament_event_announce", args=[event.pk]))
    organizer.get_by_label("Announcement").fill("Round 1 starts in 5 minutes: find your table")
    organizer.get_by_role("button", name="Send").click()
    organizer.get_by_text("Announcement sent").wait_for()

    banner.get_by_text("Round 1 starts in 5 minutes: find your table").wait_for()
    assert banner.is_visible() and banner.locator(".announcement-time").inner_text().strip()
    assert page.evaluate("window.notReloaded") is True, "shown without a reload"
    organizer.context.close()
