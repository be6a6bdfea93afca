"""The students' steps of the event-day test (tests/tournament/test_browser_event_day.py), on their phones.

They wait on "My event" until it says (without a reload) that their table is ready, walk to the table, play
their moves as they come until the game is over and read the hand's summary; between rounds "My event"
says they are through. Once the event is finished, a student opens its results page: the podium and every
place.
"""

import re
import time

from tests.games.test_browser_table import play_one_step
from tests.tournament.event_day_browsers import Day
from tournament.models import Event


def wait_on_my_event(day: Day, event: Event, cookie: dict):
    page = day.phone(cookie)
    page.goto(f"{day.url}/events/{event.slug}/me/")
    page.get_by_text("This page updates by itself.").wait_for()
    assert page.locator("#my-event-live .next-step").get_attribute("data-step") == "seated"
    page.evaluate("window.notReloaded = true")
    return page


def go_to_the_tables(phones: dict) -> None:
    """The organizer started the round in their browser: each "My event" says so by itself, and Play opens
    the table (all at once, as the students walk in together)."""
    for page in phones.values():
        page.locator('#my-event-live .next-step[data-step="play"]').wait_for()
        assert page.evaluate("window.notReloaded") is True, "updated without a reload"
        assert "Your table is ready" in page.locator("#my-event-live .next-step").inner_text()
    for page in phones.values():
        page.get_by_role("link", name="Play now").click()
    for page in phones.values():
        page.locator("#table").wait_for()
        page.wait_for_selector("#conn-status[data-status=open]")


def back_to_my_event(day: Day, event: Event, phones: dict) -> None:
    """After round one: through, waiting for the next round."""
    for page in phones.values():
        page.goto(f"{day.url}/events/{event.slug}/me/")
        step = page.locator("#my-event-live .next-step")
        assert step.get_attribute("data-step") == "between", step.inner_text()
        assert "over" in step.inner_text()
        page.evaluate("window.notReloaded = true")


def clock_seconds(page) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", page.locator("#countdown").inner_text().strip()).groups()
    return int(minutes) * 60 + int(secs)


def my_turn(page) -> bool:
    return page.evaluate("document.documentElement.dataset.myTurn === '1' && "
                         "!document.body.classList.contains('busy')")


def game_over(page) -> bool:
    return page.locator("#banner.game-over").count() > 0


def play_to_the_end(day: Day, phones: dict, watch=None, timeout: float = 150) -> dict:
    """The students at the table make their moves as they come until the game is over. On each one's first
    turn, the turn clock they find. The bots play the absent student's seat."""
    first_clock: dict = {}
    deadline = time.monotonic() + timeout
    while not all(game_over(page) for page in phones.values()):
        assert time.monotonic() < deadline, "round one's game did not end"
        for name, page in phones.items():
            if not game_over(page) and my_turn(page):
                if name not in first_clock and page.locator("#countdown").is_visible():
                    first_clock[name] = clock_seconds(page)
                play_one_step(page)
        if watch:
            watch()
        day.organizer.wait_for_timeout(50)
    return first_clock


def see_the_hand_summary(page, seats: int) -> None:
    summary = page.locator("#banner #hand-summary")
    summary.wait_for()
    assert "went out" in summary.locator(".summary-head").inner_text()
    assert summary.locator("tbody tr").count() == seats  # points left and running totals for each seat


def see_the_results(day: Day, event: Event, page, champion: str, players: int) -> None:
    """The event's public results page on a phone: the champion first on the podium, everyone placed."""
    page.goto(f"{day.url}/events/{event.slug}/results/")
    first = page.locator("#podium .podium-place").first
    assert "place-1" in first.get_attribute("class")
    assert first.locator(".podium-name").inner_text() == champion
    assert page.locator("#placement tbody tr").count() == players
    assert page.locator("#placement tbody tr").first.locator(".place").inner_text() == "1"
    day.snap(page, "13-results.png")
