"""The table's JavaScript modules in a real Chromium, fed with what the engine really produces: every card
code of every preset draws with a name and its colour marks, every kind of event the engine emits is
told in words, and the socket's back-off grows with jitter and a cap."""

import os
import re

import pytest

from games import engine
from games.engine.bots import get_bot
from games.engine.cards import CODE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RENDER_ALL = """async (codes) => {
  const { cardElement } = await import('/static/js/table/cards.js');
  const box = document.createElement('div');
  box.id = 'all-cards';
  box.style.cssText = 'display:flex;flex-wrap:wrap;gap:4px;padding:4px;background:#eee';
  document.body.prepend(box);
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '/static/css/cards.css';
  document.head.appendChild(css);
  await new Promise((resolve) => { css.onload = resolve; });
  return codes.map((code) => {
    const el = cardElement(code, { button: true, playable: code.length % 2 === 0, dimmed: code.length % 2 === 1 });
    box.appendChild(el);
    const rect = el.getBoundingClientRect();
    return { code, tag: el.tagName, label: el.querySelector('.card-name').textContent, ariaLabel: el.getAttribute('aria-label'),
             marks: [...el.querySelectorAll('.card-mark')].map((m) => m.textContent),
             corners: [...el.querySelectorAll('.card-rank')].map((m) => m.textContent),
             face: el.querySelector('.card-face').textContent + el.querySelectorAll('svg').length,
             width: rect.width, height: rect.height,
             bg: getComputedStyle(el).backgroundColor };
  });
}"""

EXPECTED_NAMES = {
    "R7": "Red 7", "Y0": "Yellow 0", "GS": "Green Skip", "BR": "Blue Reverse", "RD2": "Red Draw 2",
    "YBL": "Yellow Blank", "W": "Wild", "WD4": "Wild Draw Four", "O8": "Ocho Wild", "SH": "Shield",
    "XR": "X-Ray", "DR": "Dead Red", "BB": "Boo Blue", "AS": "Ace of Spades", "10D": "10 of Diamonds",
    "QH": "Queen of Hearts", "2C": "2 of Clubs", "KS": "King of Spades", "JK": "Joker",
}
COLOUR_MARKS = {"R": "▲", "Y": "●", "G": "■", "B": "◆"}
SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def events_of_whole_games() -> list[dict]:
    """Events as players and spectators receive them, from a few bot games of every preset."""
    out = []
    for name in engine.PRESETS:
        for seed in range(3):
            game, events = engine.Game.start(engine.get_preset(name).with_overrides({"target": 150}), 4, seed)
            bots = [get_bot("heuristic", seed=s) for s in range(4)]
            for _ in range(3000):
                out += [e.public() for e in events] + [e.for_seat(0) for e in events]
                if game.over:
                    break
                hand = game.hand
                if hand.over:
                    events = game.next_hand()
                    continue
                action = bots[hand.turn].act(engine.view_for(hand, hand.turn))
                events = game.apply(engine.action_from_dict(action))
    return out


def test_every_card_code_of_every_preset_draws_with_a_name(live_server, page):
    codes = sorted(set(CODE) | {c for name in engine.PRESETS for c in engine.deck_codes(engine.get_preset(name))})
    page.goto(live_server.url + "/play/")
    cards = page.evaluate(RENDER_ALL, codes)
    if os.environ.get("TABLE_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["TABLE_SCREENSHOTS"], "all-cards.png"), full_page=True)
    by_code = {c["code"]: c for c in cards}
    assert len(by_code) == len(codes)
    for code, name in EXPECTED_NAMES.items():
        assert by_code[code]["label"] == name, code
        assert by_code[code]["ariaLabel"] is None, f"{code}: a button is named by its own (hidden) text"
    labels = [c["label"] for c in cards]
    assert len(set(labels)) == len(labels), "two codes share a name"
    for card in cards:
        code = card["code"]
        assert card["tag"] == "BUTTON"
        assert not card["label"].startswith("Card "), f"{code} is not known to cards.js"
        assert card["face"].strip(), f"{code} has an empty face"
        assert card["width"] > 40 and card["height"] > card["width"], code
        if re.fullmatch(r"[RYGB](\d|S|R|D2|BL)", code):
            assert card["marks"] == [COLOUR_MARKS[code[0]]] * 2, code  # the colour-blind mark, both corners
        elif re.fullmatch(r"(A|[2-9]|10|J|Q|K)[SHDC]", code):
            assert [m[0] for m in card["marks"]] == [SUIT_MARKS[code[-1]]] * 2, code
    # Colours differ in more than hue for the eye, but they must at least differ.
    assert len({by_code[c]["bg"] for c in ("R1", "Y1", "G1", "B1", "W")}) == 5


def test_every_engine_event_is_told_in_words(live_server, page):
    events = events_of_whole_games()
    kinds = {e["kind"] for e in events}
    # The kinds the presets above produce in play; a new kind in the engine shows up here.
    assert {"hand_started", "dealt", "first_card", "played", "drew", "passed", "skipped", "reversed",
            "hand_over", "hand_scored", "shielded", "xray", "dead_red", "boo_blue", "uno"} <= kinds
    sample = {}
    for e in events:  # one public and one private form of each kind
        sample.setdefault((e["kind"], tuple(sorted(e))), e)
    page.goto(live_server.url + "/play/")
    lines = page.evaluate("""async (events) => {
      const { describeEvent } = await import('/static/js/table/words.js');
      const who = (s) => `Seat${s}`;
      return events.map((e) => [e.kind, describeEvent(e, who, (s) => `Game${s}`)]);
    }""", list(sample.values()))
    for kind, line in lines:
        if line is None:
            assert kind == "dealt"  # someone else's deal: nothing worth a line
            continue
        raw = kind.replace("_", " ")  # the fallback for kinds words.js does not know: "Seat1: raw name"
        assert line != raw and not line.endswith(f": {raw}"), f"{kind} is not told in words: {line}"
        assert "undefined" not in line and "NaN" not in line and "[object" not in line, line
    told = dict(lines)
    assert told["hand_scored"].startswith("Hand ")
    assert "Game" in told["hand_scored"]  # hand_scored names game seats


def test_socket_back_off_doubles_with_jitter_up_to_a_cap(live_server, page):
    page.goto(live_server.url + "/play/")
    delays = page.evaluate("""async () => {
      const { backoffDelay } = await import('/static/js/table/socket.js');
      const low = [0, 1, 2, 3, 4, 10, 40].map((a) => backoffDelay(a, { random: () => 0 }));
      const high = [0, 1, 2, 3, 4, 10, 40].map((a) => backoffDelay(a, { random: () => 0.999999 }));
      return { low, high };
    }""")
    assert delays["low"] == [250, 500, 1000, 2000, 4000, 7500, 7500]
    assert delays["high"] == [500, 1000, 2000, 4000, 8000, 15000, 15000]
