"""A viewer on a phone opens an event's "Watch live" list (real Chromium against the real ASGI site): the
count of a table goes up when someone opens that table to watch it and down when they leave, without a
reload, and the list fits the phone's width."""

import pytest

from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def live_asgi_settings():
    return {"LIVE_BOT_THINK_SECONDS": [0.5, 1.0], "LIVE_NEXT_HAND_SECONDS": 30, "LIVE_SWEEP_INTERVAL": 0.05,
            "WATCH_LIST_POLL_SECONDS": 0.5}


def test_a_phone_viewer_sees_the_count_follow_who_watches(live_asgi, page):
    game, _ = make_tournament_game(2, bots=1)
    live_game_for(game, seed=11)
    event = game.table.round.event
    page.goto(f"{live_asgi.url}/events/{event.slug}/")
    page.get_by_role("link", name="Watch live").first.click()
    page.wait_for_url(f"{live_asgi.url}/events/{event.slug}/watch/")
    count = page.locator(f"#watch-game-{game.pk} .watchers")
    assert count.inner_text() == "0 watching"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390

    viewer = page.context.new_page()  # someone else taps "Watch" on the list
    viewer.goto(page.url)
    viewer.locator(f"#watch-game-{game.pk}").get_by_role("link", name="Watch").click()
    viewer.wait_for_url(f"{live_asgi.url}/play/tables/**")
    page.wait_for_function(f"() => document.querySelector('#watch-game-{game.pk} .watchers').dataset.watchers === '1'")
    assert "Updated at" in page.locator("#live-status").inner_text()
    page.screenshot(path="/tmp/h5-watch-list-phone.png")
    viewer.close()  # the socket closes with the page
    page.wait_for_function(f"() => document.querySelector('#watch-game-{game.pk} .watchers').dataset.watchers === '0'")
