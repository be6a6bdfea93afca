"""In Chromium on a phone-sized page (390x844): the ladder, a player's page with its rating chart, and
stepping through a finished game's replay (static/js/replay.js) with every hand's cards shown."""

import pytest

from ratings.models import Competitor
from tests.ratings.factories import finished_tournament_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.fixture
def finished_game():
    """Played before the browser starts (Playwright's loop in this thread would stop the table's
    broadcasts)."""
    return finished_tournament_game(2, bots=1, seed=51)


def test_ladder_player_page_and_stepping_through_a_replay(finished_game, live_asgi, page):
    live, users = finished_game
    best = max(Competitor.objects.filter(kind="person"), key=lambda c: c.ordinal)

    page.goto(f"{live_asgi.url}/")
    page.get_by_role("button", name="Toggle navigation").click()
    page.get_by_role("link", name="Ratings").click()
    page.wait_for_url(f"{live_asgi.url}/ratings/uno/")
    people = page.locator("#ladder-people tbody tr")
    assert people.count() == 2
    assert people.first.locator("td.rating").inner_text() == f"{best.ordinal:.1f}"
    assert page.locator("#ladder-bots tbody tr").first.inner_text().startswith("1\tHouse bot (heuristic)")
    page.locator("#family-nav").get_by_role("link", name="Ocho").click()
    assert page.locator("#ladder-people-empty").is_visible()
    page.go_back()

    people.first.locator("a").click()
    page.wait_for_url(f"{live_asgi.url}/ratings/players/{best.user_id}/")
    assert page.locator("#player-ratings li").count() == 1
    assert f"{best.ordinal:.1f}" in page.locator("#player-ratings").inner_text()
    assert page.locator("figure.rating-chart svg").is_visible()
    assert page.locator("#player-events li").count() == 1
    assert page.locator("#player-games tbody tr").count() == 1
    assert _fits_the_phone(page)

    page.locator("#player-games").get_by_role("link", name="Replay").click()
    page.wait_for_url(f"{live_asgi.url}/play/tables/{live.pk}/replay/")
    step, label = page.locator("#replay-step"), page.locator("#replay-label")
    assert step.inner_text().startswith("Step 1 of ") and label.inner_text() == "Cards dealt"
    seats = page.locator("#replay-seats li")
    assert seats.count() == 3
    for i in range(3):
        held = int(seats.nth(i).locator("div").first.inner_text().split(" · ")[1].split(" ")[0])
        assert held >= 7 and seats.nth(i).locator(".replay-cards > *").count() == held  # over: all cards shown
    assert page.locator("#replay-prev").is_disabled()
    page.locator("#replay-next").click()
    assert step.inner_text().startswith("Step 2 of ") and label.inner_text() != "Cards dealt"
    total = int(step.inner_text().rsplit(" ", 1)[1])
    page.locator("#replay-last").click()
    assert step.inner_text() == f"Step {total} of {total}" and page.locator("#replay-next").is_disabled()
    assert "Hand over" in page.locator("#replay-turn").inner_text()
    assert page.locator("#replay-seed").inner_text().startswith("Seed ")
    hands = page.locator("#replay-hand option").count()
    if hands > 1:
        page.select_option("#replay-hand", "1")
        assert step.inner_text().startswith("Step 1 of ") and label.inner_text() == "Cards dealt"
    assert _fits_the_phone(page)
