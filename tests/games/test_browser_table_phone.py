"""The live table on a 390x844 phone, in a real headless Chromium against a live ASGI server: your own seat
in view at three, four and ten players (and each of ten long names readable whole), the "+N to draw" badge not under the hand's bar, X-Ray reveals near the
top and gone when the hand ends, the hand's summary, the bot tag gone when a player is back, the sound
prompt, and the special cards sheet. Hands are dealt from an explicit deck so each test knows what comes."""

import os
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import deadlines, snapshots
from games.services.lifecycle import start_practice_game
from games.services.seats import seat_holders
from tests.games.factories import make_tournament_game
from tournament.models import Player, Seat
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = os.environ.get("TABLE_SCREENSHOTS")  # a folder: keep pictures of the page to look at

# Server settings per test (the rest as tests/live_asgi.py's defaults).
SERVER_SETTINGS = {
    "test_a_player_back_from_away_loses_the_bot_tag": {"LIVE_NEXT_HAND_SECONDS": 1},
}


@pytest.fixture
def live_asgi_settings(request) -> dict:
    return {
        "LIVE_BOT_THINK_SECONDS": [0.05, 0.15],
        "LIVE_NEXT_HAND_SECONDS": 30,
        "LIVE_SWEEP_INTERVAL": 0.05,
        **SERVER_SETTINGS.get(request.node.name, {}),
    }


def snap(page, name):
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"phone-{name}.png"))


def watch_errors(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


# Data is made in fixtures listed before `page`: the ORM then runs before Playwright starts its event loop
# in this thread (services that broadcast over the channel layer cannot be called from inside it).

@pytest.fixture
def student(live_asgi):
    user = get_user_model().objects.create_user("asha_kumari", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": live_asgi.url}
    return user, cookie


def rig_practice(user, preset: str, hands: list[list[str]], turn_up: list[str], draws: list[str] = (),
                 dealer: int | None = None, **fields) -> LiveGame:
    """A practice game of `user` (seat 0) against bots whose first hand is dealt from an explicit deck:
    `hands[s]` are seat s's cards; the seat after the dealer (default: the last seat) plays first."""
    live = start_practice_game(user, preset, len(hands) - 1, "heuristic", seed=5, turn_seconds=0)
    for name, value in fields.items():
        setattr(live, name, value)
    return deal_from_deck(live, hands, turn_up, draws, dealer)


def deal_from_deck(live: LiveGame, hands: list[list[str]], turn_up: list[str], draws: list[str] = (),
                   dealer: int | None = None) -> LiveGame:
    """Deal `live`'s first hand from an explicit deck (see `rig_practice`), and save it."""
    seats = len(hands)
    game = engine.Game.from_dict(live.state)
    rules = game.rules.with_overrides(hand_size=max(len(h) for h in hands), max_players=seats)
    deck = engine.arrange_deck(rules, seats, hands, turn_up, list(draws))
    dealer = seats - 1 if dealer is None else dealer
    game.hand = engine.new_hand(rules, seats, deck=deck, dealer=dealer)
    game.dealer = dealer
    live.state = game.to_dict()
    live.hand_seats = list(range(seats))
    live.deadline = None
    deadlines.schedule(live, game, seat_holders(live), timezone.now(), None)
    live.save()
    snapshots.forget_all()  # this process kept the game as dealt at this version: the arranged one replaces it
    return live


def open_table(page, live_asgi, live, cookie):
    page.context.add_cookies([cookie])
    page.goto(live_asgi.url + live.get_absolute_url())
    page.wait_for_selector("#conn-status[data-status=open]")
    page.wait_for_selector("#discard .card")


def wait_my_turn(page, timeout=20_000):
    page.wait_for_function("() => document.documentElement.dataset.myTurn === '1' && !document.body.classList.contains('busy')",
                           timeout=timeout)


def box(page, selector):
    """The element's box, read in one step (waiting for the element): a change arriving meanwhile redraws
    the table, and a box read through a locator could belong to an element already replaced."""
    return page.eval_on_selector(selector, """el => {
      const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }""")


def uncovered(page, selector) -> bool:
    """The element is what a tap at its centre reaches: nothing else is drawn over it."""
    return page.evaluate("""(selector) => {
      const el = document.querySelector(selector);
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return Boolean(hit) && (hit === el || el.contains(hit));
    }""", selector)


def in_viewport(rect) -> bool:
    return rect["x"] >= 0 and rect["y"] >= 0 and rect["x"] + rect["width"] <= PHONE["width"] + 0.5 \
        and rect["y"] + rect["height"] <= PHONE["height"] + 0.5


# ---- your own seat ----------------------------------------------------------------------------------

TEN_NAMES = ["Asha Kumari", "Venkata Subramanian", "Priyanka Chatterjee", "Mohammed Rafiq", "Lakshmi Narayanan",
             "Gurpreet Singh Dhillon", "Ravi Shankar", "Anirban Bhattacharya", "Meera Iyer", "Siddharth Raghunathan"]


@pytest.fixture
def tables_of_three_and_four(student):
    """Practice tables of three and four, and a tournament table of ten students with long names, the
    student at its first seat."""
    user, cookie = student
    tables = [start_practice_game(user, "ocho-plato", opponents, "heuristic", seed=3, turn_seconds=0)
              for opponents in (2, 3)]
    game, _ = make_tournament_game(10)
    for seat, name in zip(Seat.objects.filter(table=game.table).order_by("number"), TEN_NAMES, strict=True):
        Player.objects.filter(pk=seat.player_id).update(display_name=name, **({"user": user} if seat.number == 0 else {}))
    tables.append(live_game_for(game, seed=3))
    return tables, cookie


def test_your_own_seat_is_in_view_at_three_four_and_ten_players(live_asgi, tables_of_three_and_four, page):
    errors = watch_errors(page)
    tables, cookie = tables_of_three_and_four
    for live in tables:
        open_table(page, live_asgi, live, cookie)
        page.wait_for_selector("#seats .seat.me")
        assert page.locator("#seats .seat").count() == live.seat_count
        me = box(page, "#seats .seat.me")
        snap(page, f"seats-{live.seat_count}")
        assert in_viewport(me), f"own seat at {me} is not within the 390 px screen ({live.seat_count} players)"
        assert uncovered(page, "#seats .seat.me")
        assert page.locator("#seats .seat.me .tag-you").inner_text() == "you"
        if live.seat_count <= 4:  # every seat's card count is in view without scrolling sideways
            # read in one go: a change arriving meanwhile redraws the strip, and a box read element by
            # element could belong to a strip already replaced
            counts = page.eval_on_selector_all("#seats .seat .seat-count", """els => els.map(e => {
                const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })""")
            assert len(counts) == live.seat_count and all(in_viewport(r) for r in counts), counts
        else:  # more scroll sideways under the own seat, which stays in view
            page.locator("#seats").evaluate("el => { el.scrollLeft = 0; }")
            assert in_viewport(box(page, "#seats .seat.me")) and uncovered(page, "#seats .seat.me")
            # Each seat, scrolled to, shows its whole name: not cut, not broken inside a word, not under
            # the pinned own seat.
            names = page.eval_on_selector("#seats", """strip => [...strip.querySelectorAll('.seat')].map(seat => {
                strip.scrollLeft = seat.offsetLeft - strip.offsetLeft;
                const name = seat.querySelector('.seat-name'), r = name.getBoundingClientRect();
                const s = seat.getBoundingClientRect(), text = name.firstChild;
                const broken = [...text.textContent.matchAll(/\\S+/g)].some(word => {  // a word on two lines
                  const range = document.createRange();
                  range.setStart(text, word.index); range.setEnd(text, word.index + word[0].length);
                  return new Set([...range.getClientRects()].map(l => Math.round(l.top))).size > 1; });
                const seen = [[r.left + 1, r.top + 1], [r.right - 1, r.bottom - 1]].every(([x, y]) => {
                  const hit = document.elementFromPoint(x, y); return Boolean(hit) && seat.contains(hit); });
                return {text: name.textContent, seen, broken,
                        cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
                        inside: r.left >= s.left - 0.5 && r.right <= s.right + 0.5 && r.bottom <= s.bottom + 0.5,
                        onScreen: r.left >= -0.5 && r.right <= window.innerWidth + 0.5}; })""")
            assert sorted(n["text"] for n in names) == sorted(TEN_NAMES)
            assert all(not n["cut"] and n["inside"] and n["seen"] and n["onScreen"] and not n["broken"]
                       for n in names), names
    assert errors == []


@pytest.fixture
def four_names_and_eleven_cards(live_asgi):
    """A tournament table of four with full names, as students have them; the student at seat 0 holds
    eleven cards and the seat before them plays first."""
    game, users = make_tournament_game(4)
    for seat, name in zip(Seat.objects.filter(table=game.table).order_by("number"),
                          ["Arjun Walia", "Ravi Shankar", "Meera Iyer", "Neha Wadhwa"], strict=True):
        Player.objects.filter(pk=seat.player_id).update(display_name=name)
    live = live_game_for(game, seed=5)
    mine = ["G1", "G2", "G3", "G4", "G5", "G6", "Y1", "Y2", "Y3", "Y4", "Y5"]
    live = deal_from_deck(live, [mine, [], [], []], ["R5"], dealer=2)
    client = Client()
    client.force_login(users[0])
    return live, {"name": settings.SESSION_COOKIE_NAME, "url": live_asgi.url,
                  "value": client.cookies[settings.SESSION_COOKIE_NAME].value}


def test_four_whole_names_and_a_hand_of_eleven_that_never_covers_the_piles(live_asgi, four_names_and_eleven_cards,
                                                                         page):
    """At 390 px every name at a table of four is readable whole (it wraps, never cut); a hand of eleven
    lies in one row that scrolls inside the hand's bar: the bar never covers the piles, and the last card
    is reached without scrolling the page."""
    errors = watch_errors(page)
    live, cookie = four_names_and_eleven_cards
    open_table(page, live_asgi, live, cookie)
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 11")
    snap(page, "four-names-eleven-cards")
    names = page.eval_on_selector_all("#seats .seat", """seats => seats.map(seat => {
        const name = seat.querySelector('.seat-name'), r = name.getBoundingClientRect(), s = seat.getBoundingClientRect();
        return {text: name.textContent, cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
                inside: r.left >= s.left - 0.5 && r.right <= s.right + 0.5 && r.bottom <= s.bottom + 0.5,
                lines: Math.round(r.height / parseFloat(getComputedStyle(name).lineHeight))}; })""")
    assert sorted(n["text"] for n in names) == ["Arjun Walia", "Meera Iyer", "Neha Wadhwa", "Ravi Shankar"]
    assert all(not n["cut"] and n["inside"] and n["lines"] <= 2 for n in names), names
    centre, hand_bar = box(page, "#centre"), box(page, "#my-area")
    assert centre["y"] + centre["height"] <= hand_bar["y"] + 0.5, (centre, hand_bar)  # the felt is not covered
    assert uncovered(page, "#discard .card") and uncovered(page, "#draw-pile")
    assert in_viewport(box(page, "#hand"))
    last = page.evaluate("""() => {
        const hand = document.getElementById('hand');
        hand.scrollLeft = hand.scrollWidth;  // the hand scrolls inside its bar, not the page
        const cards = hand.querySelectorAll('.card'), card = cards[cards.length - 1], r = card.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {x: r.x, y: r.y, width: r.width, height: r.height, hit: card.contains(hit), pageScroll: window.scrollY,
                strip: cards[1].getBoundingClientRect().left - cards[0].getBoundingClientRect().left,
                rows: new Set([...cards].map(c => Math.round(c.getBoundingClientRect().top))).size};
    }""")
    assert last["hit"] and last["pageScroll"] == 0 and in_viewport(last), last
    assert last["rows"] == 1 and last["strip"] >= 44 - 0.5, last  # one row; each card keeps a strip to tap
    assert errors == []


# ---- "+N to draw" -----------------------------------------------------------------------------------

@pytest.fixture
def draw_two_coming(student):
    """Three players; the last bot plays first and holds only a red Draw 2 to play on a red 5: the student
    (next) faces "+2 to draw" with a hand of twelve cards (a tall hand bar)."""
    user, cookie = student
    hand = ["G1", "G2", "G3", "G4", "G5", "G6", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]
    blues = ["B1", "B1", "B2", "B2", "B3", "B3", "B4", "B4", "B6", "B6", "B7"]  # none plays on a red 5
    live = rig_practice(user, "ocho-plato", [hand, [], ["RD2", *blues]], ["R5"], ["G7", "G9"], dealer=1)
    return live, cookie


def test_the_draw_badge_is_not_hidden_under_the_hand_bar(live_asgi, draw_two_coming, page):
    errors = watch_errors(page)
    live, cookie = draw_two_coming
    open_table(page, live_asgi, live, cookie)
    wait_my_turn(page)
    badge = page.locator("#pending")
    assert badge.is_visible()
    assert badge.inner_text().startswith("+2 to draw")
    snap(page, "pending")
    assert in_viewport(badge.bounding_box())
    assert uncovered(page, "#pending"), "the badge is under another element"
    bar = box(page, "#my-area")
    assert badge.bounding_box()["y"] + badge.bounding_box()["height"] <= bar["y"]
    assert errors == []


# ---- X-Ray reveals and the hand's summary --------------------------------------------------------------

@pytest.fixture
def xray_hand(student):
    """Three players, three cards each: the student plays first with an X-Ray and two reds that go out;
    the bots can never play (greens and blues on red) and draw yellows."""
    user, cookie = student
    live = rig_practice(user, "ocho-plato", [["XR", "R7", "R9"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]],
                        ["R5"], ["Y1", "Y2", "Y3", "Y4"])
    return live, cookie


def play(page, code, colour=None):
    """Tap the card where it is. (Playwright's `click` first scrolls an element into view, and for a card
    in the sticky hand bar that scrolls the page down to the bar's place in the flow: no finger does.)"""
    page.locator(f'#hand .card.playable[data-card="{code}"]').first.dispatch_event("click")
    if colour:
        page.locator(f'#colour-options button[value="{colour}"]').click()


def test_xray_reveals_show_near_the_top_go_at_hand_end_and_the_hand_is_summed_up(live_asgi, xray_hand, page):
    errors = watch_errors(page)
    live, cookie = xray_hand
    open_table(page, live_asgi, live, cookie)
    wait_my_turn(page)
    play(page, "XR", "R")
    page.wait_for_selector("#reveals:not([hidden]) .reveal")
    reveals = page.locator("#reveals .reveal")
    assert reveals.count() == 2
    shown = {int(reveals.nth(i).get_attribute("data-of")): reveals.nth(i).locator(".card").get_attribute("data-card")
             for i in range(2)}
    assert shown[1] in {"G1", "G2", "G3"} and shown[2] in {"B1", "B2", "B3"}
    assert "X-Ray" in reveals.first.inner_text()
    snap(page, "xray")
    # Near the top: under the turn line, above the felt, in view and not covered.
    area = box(page, "#reveals")
    assert in_viewport(area)
    assert area["y"] < box(page, "#centre")["y"]
    assert area["y"] + area["height"] < box(page, "#my-area")["y"]
    assert uncovered(page, "#reveals .reveal")

    wait_my_turn(page)
    play(page, "R7")
    wait_my_turn(page)
    play(page, "R9")
    page.wait_for_selector("#hand-summary")
    snap(page, "hand-summary")
    # The hand is over: the reveals are gone.
    assert page.locator("#reveals").is_hidden()
    assert page.locator("#reveals .reveal").count() == 0
    # The summary: who went out, points left per player, running totals (bots drew Y1, Y3 and Y2, Y4).
    summary = page.locator("#hand-summary")
    assert "Hand 1: asha_kumari went out" in summary.locator(".summary-head").inner_text()
    rows = {}
    for i in range(3):
        row = summary.locator("tbody tr").nth(i)
        rows[row.locator("th").inner_text().split("\n")[0].replace("went out", "").strip()] = [
            row.locator("td").nth(j).inner_text() for j in range(3)]
    assert rows == {"asha_kumari": ["0", "+22", "22"], "Bot 2": ["10", "+0", "0"], "Bot 3": ["12", "+0", "0"]}
    assert summary.locator("tr.went-out th").inner_text().startswith("asha_kumari")
    assert in_viewport(summary.bounding_box()) and uncovered(page, "#hand-summary")
    # Points only: the summary names no card that was left in another hand.
    assert not re.search(r"\b[GB][1-3]\b|Green|Blue", summary.inner_text())
    assert errors == []


# ---- back from away ---------------------------------------------------------------------------------

@pytest.fixture
def taken_over(student):
    """A two-player practice game where a bot already plays for the student (three missed turns), with a
    turn clock of 2 s and a bot after one more missed turn."""
    user, cookie = student
    live = start_practice_game(user, "uno-official", 1, "heuristic", seed=8, turn_seconds=2)
    LiveGame.objects.filter(pk=live.pk).update(bot_takeover=[True, False], missed_turns=[3, 0],
                                               missed_turns_before_bot=1, deadline=timezone.now())
    live.refresh_from_db()
    return live, cookie


def my_tags(page) -> str:
    return " ".join(page.locator("#seats .seat.me .tag").all_inner_texts())


def test_a_player_back_from_away_loses_the_bot_tag(live_asgi, taken_over, page):
    errors = watch_errors(page)
    live, cookie = taken_over
    # Opening the table is being back: the page says so and the bot stops.
    open_table(page, live_asgi, live, cookie)
    page.wait_for_function("() => { const s = window.ochoTable.model.game.seats[0];"
                           " return s.takeover === false && s.connected === true; }")
    page.wait_for_function("() => !document.querySelector('#seats .seat.me .tag-away')")
    assert "bot" not in my_tags(page) and "away" not in my_tags(page)
    assert page.locator("#takeover-notice").is_hidden()
    live.refresh_from_db()
    assert live.bot_takeover[0] is False

    # Idle at the table: the clock runs out, a bot takes over, the page says so; "I'm back" ends it.
    page.wait_for_function("() => window.ochoTable.model.game.seats[0].takeover === true", timeout=30_000)
    page.wait_for_selector("#takeover-notice:not([hidden])")
    assert "bot plays (away)" in my_tags(page)
    snap(page, "taken-over")
    page.get_by_role("button", name="I’m back: let me play").click()
    page.wait_for_function("() => window.ochoTable.model.game.seats[0].takeover === false")
    assert "bot" not in my_tags(page) and "away" not in my_tags(page)
    assert page.locator("#takeover-notice").is_hidden()
    assert errors == []


# ---- sound --------------------------------------------------------------------------------------------

@pytest.fixture
def bot_first(student):
    """Two players; the bot plays first, but only when the test lets it (its think time is held an hour
    until then, so a loaded machine cannot let it move before the student's tap): the student's first
    turn follows."""
    user, cookie = student
    live = rig_practice(user, "uno-official", [["R1", "R2", "G3"], ["R3", "R4", "B5"]], ["R5"], dealer=0)
    LiveGame.objects.filter(pk=live.pk).update(deadline=timezone.now() + timedelta(hours=1))
    return live, cookie


def test_the_sound_prompt_unlocks_the_tone_for_the_first_turn(live_asgi, bot_first, page):
    # Playwright's Chromium, like a phone's browser, lets a page play sound only after a tap on it.
    errors = watch_errors(page)
    live, cookie = bot_first
    open_table(page, live_asgi, live, cookie)
    prompt = page.locator("#sound-prompt")
    assert prompt.is_visible()
    assert "Tap to turn on sound" in prompt.inner_text()
    before = page.evaluate("window.ochoTable.sound")
    assert before["context"] == "suspended" and before["beeps"] == 0 and before["enabled"] is True
    assert page.evaluate("document.documentElement.dataset.myTurn") != "1"  # the bot is still thinking
    snap(page, "sound-prompt")
    prompt.click()
    page.wait_for_function("() => window.ochoTable.sound.context === 'running'")
    assert prompt.is_hidden()
    # the tap may play a tone of its own once the browser has started the sound (how soon varies)
    tapped = page.evaluate("window.ochoTable.sound.beeps")
    assert tapped <= 1
    LiveGame.objects.filter(pk=live.pk).update(deadline=timezone.now())  # the bot may play now
    wait_my_turn(page, timeout=30_000)
    page.wait_for_function(f"() => window.ochoTable.sound.beeps > {tapped}")  # and the first turn does too
    assert errors == []


# ---- the special cards sheet ----------------------------------------------------------------------------

@pytest.fixture
def ocho_table(student):
    user, cookie = student
    return start_practice_game(user, "ocho-plato", 2, "heuristic", seed=4, turn_seconds=0), cookie


def test_the_special_cards_of_the_rules_are_one_tap_away(live_asgi, ocho_table, page):
    errors = watch_errors(page)
    live, cookie = ocho_table
    open_table(page, live_asgi, live, cookie)
    sheet = page.locator("#cards-sheet")
    assert sheet.is_hidden()
    page.get_by_role("button", name="Special cards").click()
    assert sheet.is_visible()
    snap(page, "cards-sheet")
    names = sheet.locator("dt").all_inner_texts()
    for name in ("Shield", "X-Ray", "Dead Red", "Boo Blue", "Ocho wild (the 8)", "Wild Draw 4", "Draw 2"):
        assert name in names
    assert "Wild" not in names  # Ocho's deck has no plain Wild
    # Each entry shows its card, drawn by the page's own card renderer.
    assert sheet.locator(".sheet-picture .card").count() == len(names)
    assert sheet.locator('.sheet-card[data-kind="xray"] .card').get_attribute("data-card") == "XR"
    # One screen: the whole sheet is within the phone's screen, nothing to scroll.
    assert in_viewport(sheet.bounding_box())
    assert page.evaluate("(() => { const d = document.querySelector('#cards-sheet');"
                         " return d.scrollHeight <= d.clientHeight + 1; })()")
    sheet.get_by_role("button", name="Close").click()
    assert sheet.is_hidden()
    assert errors == []
