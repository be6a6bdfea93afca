"""The table page in Chromium against a live server: it shows the commitment of the hand in play and, once a
hand is over, its seed and salt with a link that checks them on /play/verify/; when the server closes the
socket (a message too large: 4413, too many messages: 4429) or the table is gone, the page says why
instead of silently reconnecting."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import timers
from games.services.lifecycle import create_demo_bot_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_after_one_hand(live_asgi):
    """A table of bots (secret seeds, like every production table) whose first hand is over and whose
    second is dealt, played here by the sweeper before the page (and the server's own sweeper) starts."""
    live = create_demo_bot_table(seats=3, preset="uno-official")
    for _ in range(2000):
        live.refresh_from_db()
        game = engine.Game.from_dict(live.state)
        if len(game.results) >= 1 and game.hand is not None and not game.hand.over:
            return live
        timers.sweep_once(timezone.now() + timedelta(minutes=1))
    raise AssertionError("the bots did not finish a hand")


@pytest.fixture
def bot_table(live_asgi):
    return create_demo_bot_table(seats=3, preset="uno-official")


def test_the_table_shows_the_commitment_then_the_seed_with_a_link_that_checks_it(live_asgi, table_after_one_hand,
                                                                                 page):
    live = table_after_one_hand
    page.goto(live_asgi.url + live.get_absolute_url())
    page.wait_for_selector("#conn-status[data-status=open]")
    page.wait_for_selector("#shuffle-last:not([hidden]) a.verify-link")
    records = {r["hand"] + 1: r for r in LiveGame.objects.get(pk=live.pk).shuffles}
    current = int(page.locator("#shuffle-current").get_attribute("data-hand"))
    assert page.locator("#shuffle-current code").inner_text() == records[current]["commitment"]
    text = page.locator("#table").inner_text()
    assert records[current]["seed"] not in text and records[current]["salt"] not in text  # hand in play
    last = int(page.locator("#shuffle-last").get_attribute("data-hand"))
    assert last == current - 1
    assert page.locator("#shuffle-last .shuffle-seed").inner_text() == records[last]["seed"]
    assert page.locator("#shuffle-last .shuffle-salt").inner_text() == records[last]["salt"]
    page.locator("#shuffle-last a.verify-link").click()
    page.wait_for_selector("#verify-result")
    assert "The seed and salt match the commitment." in page.locator("#verify-result").inner_text()
    detail = page.locator("#hand-detail").inner_text()
    assert f"hand {last}" in detail and "identical to the deal played" in detail


def test_too_many_messages_is_said_and_the_page_reconnects(live_asgi, bot_table, page):
    page.goto(live_asgi.url + bot_table.get_absolute_url())
    page.wait_for_selector("#conn-status[data-status=open]")
    # a spectator may send 20 messages per 5 s; at twice that the server closes the socket (4429)
    page.evaluate("() => { for (let i = 0; i < 60; i += 1) window.ochoTable.send({type: 'ping', echo: i}); }")
    page.wait_for_selector("#conn-problem:has-text('too many messages')")
    # (the server's close reason, "limit 20 per 5 s", reaches the page under uvicorn; Daphne drops it)
    page.wait_for_selector("#conn-problem:has-text('Reconnected')")
    assert page.locator("#conn-status").get_attribute("data-status") == "open"


def test_a_message_too_large_is_said_and_the_page_reconnects(live_asgi, bot_table, page):
    page.goto(live_asgi.url + bot_table.get_absolute_url())
    page.wait_for_selector("#conn-status[data-status=open]")
    page.evaluate("() => window.ochoTable.sendRaw('x'.repeat(70000))")
    page.wait_for_selector("#conn-problem:has-text('too large')")
    page.wait_for_selector("#conn-problem:has-text('Reconnected')")


def test_a_table_that_is_gone_stops_reconnecting_and_says_so(live_asgi, bot_table, page):
    page.goto(live_asgi.url + bot_table.get_absolute_url())
    page.wait_for_selector("#conn-status[data-status=open]")
    with transaction.atomic():  # hold the game row, so the server's sweeper cannot add a move mid-delete
        LiveGame.objects.select_for_update().get(pk=bot_table.pk).delete()
    page.evaluate("() => window.ochoTable.sendRaw('x'.repeat(70000))")  # the server closes the socket
    page.wait_for_selector("#conn-problem:has-text('stopped reconnecting')", timeout=60_000)
    assert "does not exist any more" in page.locator("#conn-problem").inner_text()
    assert page.locator("#conn-status").get_attribute("data-status") == "closed"
