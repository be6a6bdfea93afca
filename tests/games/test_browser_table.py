"""The table page in a real headless Chromium against a live ASGI server (Daphne, real websockets, real
bots and sweeper): a student plays a practice hand to its end; a spectator's page follows a bot table
without reloading."""

import os
import re
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import LiveGame
from games.services.lifecycle import create_demo_bot_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_TIMEOUT_S = 120
SCREENSHOTS = os.environ.get("TABLE_SCREENSHOTS")  # a folder: keep pictures of the page to look at


def snap(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


# Data is made in fixtures listed before `page`: the ORM then runs before Playwright starts its event loop
# in this thread (services that broadcast over the channel layer cannot be called from inside it).

@pytest.fixture
def student_cookie(live_asgi):
    user = get_user_model().objects.create_user("asha", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return user, cookie


@pytest.fixture
def bot_table(live_asgi):
    return create_demo_bot_table(seats=3, preset="ocho-plato")


def watch_errors(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


QUICK_MS = 1000


def click(locator) -> bool:
    """Click unless the page has moved on meanwhile (a bot's move re-drew the hand, the turn ended)."""
    try:
        locator.click(timeout=QUICK_MS)
    except PlaywrightTimeout:
        return False
    return True


def play_one_step(page) -> str | None:
    """Make one move if the page offers one: a highlighted card (choosing a colour for a wild), else
    Draw, else Pass. Returns what was done."""
    dialog = page.locator("#colour-dialog[open]")
    if dialog.count():
        return "colour" if click(dialog.locator("#colour-options button").first) else None
    if page.locator("body.busy").count():
        return None
    card = page.locator("#hand .card.playable").first
    if card.count():
        try:
            label = card.locator(".card-name").text_content(timeout=QUICK_MS)
        except PlaywrightTimeout:
            return None
        return f"play {label}" if click(card) else None
    for action in ("choose_colour", "call_uno", "draw", "pass", "accept"):
        button = page.locator(f'#actions [data-action="{action}"]:visible:enabled').first
        if button.count() and click(button):
            return action
    return None


def test_student_plays_a_practice_hand_to_its_end(live_asgi, student_cookie, page):
    errors = watch_errors(page)
    user, cookie = student_cookie
    page.context.add_cookies([cookie])
    page.goto(live_asgi.url + "/play/practice/")
    page.get_by_label("Rules").select_option("uno-official")
    page.get_by_label("Number of bot opponents").fill("2")
    page.get_by_role("button", name="Start a practice game").click()
    page.wait_for_url(re.compile(r"/play/tables/\d+/$"))
    live = LiveGame.objects.get(owner=user)
    assert page.locator("#table").get_attribute("data-role") == "player"

    page.wait_for_selector("#conn-status[data-status=open]")
    page.wait_for_selector("#hand .card")
    # Every card in the hand is a button with a name; playable ones are marked, the rest dimmed.
    cards = page.locator("#hand .card")
    # Seven dealt, or more when a Draw 2 was turned up or a bot hit the student before the page loaded.
    assert cards.count() >= 7
    for i in range(cards.count()):
        card = cards.nth(i)
        assert card.evaluate("el => el.tagName") == "BUTTON"
        assert card.locator(".card-name").text_content()
        classes = card.get_attribute("class")  # once: a bot's move may redraw the hand between two reads
        assert "playable" in classes or "dimmed" in classes

    snap(page, "player-start")
    moves = []
    deadline = time.monotonic() + HAND_TIMEOUT_S
    while not page.locator("#banner:not([hidden])").count():
        assert time.monotonic() < deadline, f"the hand did not end; moves so far: {moves}"
        if page.evaluate("document.documentElement.dataset.myTurn") == "1" or page.locator("#colour-dialog[open]").count():
            done = play_one_step(page)
            if done:
                moves.append(done)
                if len(moves) == 3:
                    snap(page, "player-playing")
                continue
        page.wait_for_timeout(50)

    snap(page, "player-hand-over")
    assert moves, "the student never got to move"
    banner = page.locator("#banner")
    assert "Game over" in banner.inner_text() or re.match(r"Hand 1: .+ (went out|wins)", banner.inner_text())
    # The hand's score is in the scores table: someone has points now, and the log says who scored.
    page.wait_for_function("() => [...document.querySelectorAll('#scores-body .score-total')]"
                           ".some(td => Number(td.textContent) > 0)")
    assert page.locator("#log-list li", has_text=re.compile(r"Hand 1: .+ scores \d+ points")).count() == 1
    assert page.locator("#scores-facts").inner_text().endswith("UNO, official rules")  # not "uno-official"
    live.refresh_from_db()
    assert live.version >= len(moves)
    assert page.locator("#table").get_attribute("data-version") == str(live.version)
    assert errors == []


def test_spectator_page_follows_bots_without_reloading(live_asgi, bot_table, page):
    errors = watch_errors(page)
    live = bot_table
    page.goto(live_asgi.url + live.get_absolute_url())
    assert page.locator("#table").get_attribute("data-role") == "spectator"
    # A spectator has no hand and no buttons.
    assert page.locator("#hand").count() == 0
    assert page.locator("#actions").count() == 0
    page.wait_for_selector("#conn-status[data-status=open]")
    page.wait_for_selector("#discard .card")
    first_version = int(page.locator("#table").get_attribute("data-version"))
    page.evaluate("window.__samePage = true")  # gone if the page reloaded
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) >= {first_version + 5}")
    assert page.evaluate("window.__samePage") is True
    snap(page, "spectator")
    assert page.locator("#log-list li").count() >= 3
    assert page.locator("#seats .seat.on-turn").count() == 1 or page.locator("#banner:not([hidden])").count()
    # Nothing hidden reached the spectator: no hand in the model and no card list in drawn events.
    model = page.evaluate("window.ochoTable.model")
    assert "hand" not in model["view"] and "legal_actions" not in model["view"]
    assert errors == []


@pytest.fixture
def practice_table(student_cookie):
    user, cookie = student_cookie
    from games.services.lifecycle import start_practice_game

    return start_practice_game(user, "uno-official", 1, "heuristic", seed=11, turn_seconds=0), cookie


def test_your_turn_shows_in_title_and_favicon_and_cards_work_from_the_keyboard(live_asgi, practice_table, page):
    errors = watch_errors(page)
    live, cookie = practice_table
    page.context.add_cookies([cookie])
    page.goto(live_asgi.url + live.get_absolute_url())
    page.wait_for_function("() => document.documentElement.dataset.myTurn === '1'", timeout=30_000)
    assert page.title().startswith("● Your turn – ")
    assert page.locator("link#favicon").get_attribute("href").startswith("data:image/png")
    assert page.locator("#turn-line.my-turn").count() == 1

    # The sound switch remembers its state across a reload.
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('ocho.table.sound')") == "off"
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    page.wait_for_function("() => document.documentElement.dataset.myTurn === '1'")

    # Keyboard: Tab reaches the cards with a visible focus; Enter plays a playable card (a wild asks
    # for a colour, chosen with the keyboard too); otherwise Tab on to Draw and press Space.
    version = int(page.locator("#table").get_attribute("data-version"))
    # (tried again: a message arriving just then redraws the hand, and a slow machine may move the focus
    # before the keys reach it)
    for attempt in range(3):
        page.locator("#hand .card").first.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        try:
            page.wait_for_function("() => document.activeElement.matches('#hand .card:focus-visible')",
                                   timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    playable = page.locator("#hand .card.playable")
    if playable.count():
        playable.first.focus()
        page.keyboard.press("Enter")
        if page.locator("#colour-dialog[open]").count():
            page.keyboard.press("Enter")  # the first colour has the focus
    else:
        page.locator('#actions [data-action="draw"]').focus()
        page.keyboard.press("Space")
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {version}")
    assert errors == []
