"""The live table by keyboard alone, on a 390x844 phone, in a real headless Chromium against the live ASGI
server: a practice game (seed 0: the student plays first and holds a Wild) played for a few moves with
Tab, Enter and Space only, the colour chosen in the dialog by keyboard; after each move the live regions
say what was played and whose turn it is (the log gains a line and keeps the old ones, so a screen reader
hears only the new one); every button is at least 44 px and each overlapping card keeps a 44 px strip; with
reduced motion asked for, nothing on the page has a transition or an animation."""

import json

import pytest
from django.conf import settings
from django.test import Client

from games import engine
from games.services.lifecycle import start_practice_game
from tests.a11y_audit import moving
from tests.tournament.organizer_factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = 3
TARGET_PX = 44

@pytest.fixture
def practice(live_asgi):
    user = make_user("keys")
    live = start_practice_game(user, "uno-official", 2, seed=0, turn_seconds=600)
    first = engine.view_for(engine.Game.from_dict(live.state).hand, 0)
    assert first["turn"] == 0 and "W" in first["hand"], "seed 0 deals the student a Wild and the first turn"
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return live, cookie


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def log_lines(page) -> list[str]:
    return page.locator("#log-list li").all_inner_texts()


def test_a_practice_game_is_played_by_keyboard_alone(live_asgi, practice, page):
    live, cookie = practice
    page.context.add_cookies([cookie])
    states = []  # the whole `state` frames the page received (one on opening; another only after a gap)
    page.on("websocket", lambda socket: socket.on(
        "framereceived", lambda text: states.append(text) if json.loads(text).get("type") == "state" else None))
    page.goto(live_asgi.url + live.get_absolute_url())
    page.locator("#turn-line.my-turn").wait_for()

    # What a screen reader hears: the turn sentence and, on your turn, what your hand holds.
    turn = page.locator("#turn-text")
    assert turn.get_attribute("aria-live") == "polite"
    assert page.locator("#turn-line").get_attribute("aria-live") is None  # the countdown ticks in it, unheard
    assert page.locator("#countdown").get_attribute("role") == "timer"
    assert turn.locator(".visually-hidden").inner_text() == "You hold 7 cards, 2 of them playable."
    assert page.locator("#hand").get_attribute("aria-label") == "Your hand: 7 cards"
    names = page.locator("#hand .card .card-name").all_inner_texts()
    assert "Wild, playable" in names and "Red Reverse, playable" in names and "Yellow 7" in names

    # Touch targets: every visible button of the table at least 44 px; overlapping cards a 44 px strip.
    small = page.evaluate("""(min) => [...document.querySelectorAll('#table button, #colour-dialog button')]
        .filter((b) => b.offsetParent !== null).map((b) => [b.id || b.dataset.action || b.className,
          b.getBoundingClientRect()]).filter(([, r]) => r.width < min || r.height < min)
        .map(([name, r]) => `${name}: ${r.width}x${r.height}`)""", TARGET_PX)
    assert small == []
    lefts = page.evaluate("[...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().left)")
    strips = [b - a for a, b in zip(lefts, lefts[1:], strict=False)]
    assert len(lefts) == 7 and min(strips) >= TARGET_PX - 0.5, strips

    # Move 1: Tab to the Wild, Enter; the colour dialog takes the focus; Tab to a colour, Space.
    tab_to(page, '#hand .card.playable[data-card="W"]')
    page.keyboard.press("ArrowLeft")  # arrows move along the hand
    assert page.evaluate("document.activeElement.dataset.card") != "W"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "W"
    page.evaluate("document.querySelectorAll('#log-list li').forEach((li) => { li.dataset.old = 'yes'; })")
    old_lines = log_lines(page)
    states_before = len(states)
    page.keyboard.press("Enter")
    page.locator("#colour-dialog[open]").wait_for()
    assert page.evaluate("document.activeElement.closest('#colour-dialog') !== null")
    page.keyboard.press("Tab")
    colour = page.evaluate("document.activeElement.value")
    assert colour in "RYGB" and len(colour) == 1
    page.keyboard.press(" ")
    page.locator("#colour-dialog[open]").wait_for(state="detached")
    colour_name = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}[colour]
    page.locator("#log-list li", has_text="keys played Wild").first.wait_for()
    # One reading of the whole log (text and mark together): the bot plays on meanwhile and prepends lines,
    # so the texts and the marks must come from the same instant.
    snapshot = page.evaluate(
        "[...document.querySelectorAll('#log-list li')].map((li) => [li.innerText, li.dataset.old === 'yes'])")
    lines = [text for text, _ in snapshot]
    played = [line for line in lines if line.startswith("keys played Wild")]
    assert played and colour_name in played[-1], lines
    # The log only gained lines at the top: the old ones are the same elements, so only new ones are read
    # (unless the page lost an update meanwhile and was sent the whole state again: then it is rewritten).
    assert states_before >= 1 and old_lines and lines[-len(old_lines):] == old_lines
    if len(states) == states_before:
        marks = [old for _, old in snapshot]
        new_count = len(lines) - len(old_lines)
        assert new_count >= 1 and marks == [False] * new_count + [True] * len(old_lines), snapshot
    assert page.locator("#log-list").get_attribute("aria-live") == "polite"

    # Moves 2 and 3: a highlighted card with Enter, or else the Draw button with Space.
    for _ in range(MOVES - 1):
        page.locator("#turn-line.my-turn").wait_for()
        assert turn.locator(".visually-hidden").inner_text().startswith("You hold ")
        before = len(log_lines(page))
        if page.locator("#hand .card.playable").count():
            tab_to(page, "#hand .card.playable")
            key = "Enter"
        else:
            tab_to(page, '#actions [data-action="draw"]')
            key = " "
        page.keyboard.press(key)
        if page.locator("#colour-dialog[open]").count():
            page.keyboard.press("Enter")
        # The move is told in the log as the student's own line (the bot may already have answered it).
        page.wait_for_function("""(n) => [...document.querySelectorAll('#log-list li')]
            .slice(0, document.querySelectorAll('#log-list li').length - n)
            .some((li) => li.innerText.startsWith('keys '))""", arg=before)

    # Reduced motion: the page has transitions (the cards'), and with the setting none lasts at all.
    assert moving(page), "the table has transitions to switch off"
    page.emulate_media(reduced_motion="reduce")
    assert moving(page) == []
